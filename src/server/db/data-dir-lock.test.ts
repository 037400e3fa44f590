import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DataDirLockedError, LOCK_FILE, lockDataDir } from './data-dir-lock.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function dataDir() {
  const dir = mkdtempSync(join(tmpdir(), 'zs-lock-'));
  dirs.push(dir);
  return dir;
}

/** The pid of a process that has ended. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '0']);
  return child.pid!;
}

describe('the data directory lock', () => {
  it('names this process in the lock file while held, and removes it on release', () => {
    const dir = dataDir();
    const release = lockDataDir(dir);
    expect(readFileSync(join(dir, LOCK_FILE), 'utf8').trim()).toBe(String(process.pid));
    release();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
    release(); // twice is harmless
  });

  it('refuses while a live process holds the directory, naming it', () => {
    const dir = dataDir();
    // the parent (vitest's main process) is alive for as long as this test runs
    writeFileSync(join(dir, LOCK_FILE), `${process.ppid}\n`);
    expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
    expect(() => lockDataDir(dir)).toThrow(`in use by process ${process.ppid}`);
    expect(readFileSync(join(dir, LOCK_FILE), 'utf8').trim()).toBe(String(process.ppid));
  });

  it('refuses a second hold by this same process', () => {
    const dir = dataDir();
    const release = lockDataDir(dir);
    try {
      expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
    } finally {
      release();
    }
    lockDataDir(dir)();
  });

  it('takes over a lock left by a process that is gone, or a garbled one', () => {
    for (const content of [`${deadPid()}\n`, '']) {
      const dir = dataDir();
      writeFileSync(join(dir, LOCK_FILE), content);
      const release = lockDataDir(dir);
      expect(readFileSync(join(dir, LOCK_FILE), 'utf8').trim()).toBe(String(process.pid));
      release();
    }
  });

  it('takes over a lock naming this pid that this process does not hold (a container restarted as pid 1)', () => {
    const dir = dataDir();
    writeFileSync(join(dir, LOCK_FILE), `${process.pid}\n`);
    const release = lockDataDir(dir);
    release();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
  });
});
