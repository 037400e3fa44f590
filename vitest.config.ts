import { defineConfig } from 'vitest/config';
import EnvironmentGroupingSequencer from './tests/setup/sequencer.ts';

// Two projects, chosen by where a test file is (docs/testing.md):
//   unit         the engine, client components, pure server code and the schema-set checks: no
//                database, no global setup. `npm run test:unit`, fast enough to run on every save.
//   integration  the server suites on both databases and the browser tests, on the database the
//                global setup seeds once per run (tests/setup/global.ts). `npm run test:integration`.
// A new file lands by its location: tests/server/** and tests/e2e/** are integration, everything
// else under src/ and tests/ is unit. The exceptions outside those folders are listed here by name.
const INTEGRATION = [
  'tests/server/**/*.test.{ts,tsx}',
  'tests/e2e/**/*.test.{ts,tsx}',
  // every document type through the real HTTP API: needs the seeded database (inject('pgliteTemplate'))
  'tests/schemas/conformance.test.ts',
  // every document type's list, form and detail rendered (192 renders): no database, but minutes of
  // CPU, the slowest file under src/ and tests/schemas by far; a whole-set check like conformance
  'tests/schemas/renders.test.tsx',
];

export default defineConfig({
  test: {
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // root-level only: one closing "N passed, N failed, N skipped" line for the whole run, both projects
    reporters: ['default', './tests/setup/summary-reporter.ts'],
    // unit's files grouped by environment, so that a worker keeps its process (tests/setup/sequencer.ts)
    sequence: { sequencer: EnvironmentGroupingSequencer },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['src/**/*.test.{ts,tsx}', 'tests/**/*.test.{ts,tsx}'],
          exclude: [...INTEGRATION, 'tests/bench/**', '**/node_modules/**'],
          // the files a worker runs share one process: React, antd and the compiled schema set
          // (tests/support/schema-set.ts) are loaded once per worker, not once per file; what a file
          // could leave behind (the project's modules, the page) is reset before the next one
          isolate: false,
          setupFiles: ['tests/setup/unit-file.ts'],
          // a worker per core (vitest's default leaves one core to the main process, which has
          // little to do here); in a run of both projects, unit's files run first
          maxWorkers: '100%',
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: INTEGRATION,
          exclude: ['**/node_modules/**'],
          globalSetup: ['tests/setup/global.ts'],
          // as in unit, a worker's files share its process: Fastify, PGlite, pg, Ajv and playwright-core
          // are loaded once per worker; the project's modules are evaluated afresh for each file
          // (tests/setup/integration-file.ts). Isolated, the run took a quarter longer (docs/testing.md).
          isolate: false,
          setupFiles: ['tests/setup/integration-file.ts'],
          // two files at a time: the suites wait on PostgreSQL, child processes and Chromium as much
          // as they compute, so a second worker cuts the wall time by a quarter on two cores
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
