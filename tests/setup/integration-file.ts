// Runs before every file of the integration project (vitest.config.ts: setupFiles), which, like
// unit, does not isolate its files: the packages (Fastify, PGlite and its WebAssembly, pg, Ajv,
// playwright-core) are loaded once per worker, not once per file. The project's own modules are
// evaluated afresh for each file, so module-level state (caches, the e2e harness's hooks) starts
// as it would in a process of its own.
import { afterAll, vi } from 'vitest';

vi.resetModules();
// the packs, as every process installs them where it is put together (src/engine/packs.ts); imported
// after the reset, so that the file's own modules see them
const { installPacks } = await import('../../src/engine/packs.ts');
const { ENGINE_PACKS } = await import('../../src/packs/engine.ts');
installPacks(ENGINE_PACKS);
afterAll(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
});
