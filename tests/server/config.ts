import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Config } from '../../src/server/config.ts';

/** Uploaded files of this test process (the data directory itself is never used: databases are given). */
const storageDir = mkdtempSync(join(tmpdir(), 'zs-test-files-'));

export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    port: 0,
    host: '127.0.0.1',
    dataDir: '/nonexistent',
    storageDir,
    timeZone: 'Asia/Shanghai',
    // the demo company without its months of approved documents: a quicker first start, and no
    // demo tasks in the seeded users' work lists (tests/server/demo.test.ts seeds the full demo)
    seed: true,
    demo: 'basic',
    logLevel: 'silent',
    poolSize: 5,
    exposeCaptchaCode: false,
    // every test logs in from 127.0.0.1: the per-address limit would count all of them together
    loginLimits: { perAddress: 10_000, perAccount: 10 },
    limits: { captchaPerAddress: 10_000 },
    // the late-settlement check runs when a test asks (app.jobs.lateSettlements.run(today)), not on the real clock
    lateSettlementMinutes: 0,
    ...overrides,
  };
}
