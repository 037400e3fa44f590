import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.{ts,tsx}', 'tests/**/*.test.{ts,tsx}'],
    exclude: ['tests/bench/**', 'node_modules/**'],
    environment: 'node',
    globalSetup: ['tests/setup/global.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    reporters: ['default', './tests/setup/summary-reporter.ts'],
  },
});
