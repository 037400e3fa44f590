// Runs before every file of the unit project (vitest.config.ts: setupFiles). That project does not
// isolate its files (isolate: false): the files a worker runs share one process, so the packages
// (React, antd, happy-dom, Ajv) are imported once per worker instead of once per file. What a file
// could leave behind for the next one is reset here, so that each file still starts as it would in
// a process of its own:
// - the project's own modules are evaluated afresh (module-level registries, stores, the client's
//   catalog, a vi.mock'ed import): vi.resetModules() — packages in node_modules are not re-run;
// - in a happy-dom file, the page: what is left in <body> (antd's dialogs and messages are mounted
//   outside Testing Library's container), cookies, local and session storage, the address.
// A cache meant to outlive a file keeps itself on globalThis (tests/support/schema-set.ts).
import { afterAll, vi } from 'vitest';

/** The address the happy-dom environment starts at. */
const START_URL = 'http://localhost:3000/';

function resetPage() {
  if (typeof document === 'undefined') return;
  document.body.replaceChildren();
  for (const attribute of [...document.body.attributes]) document.body.removeAttribute(attribute.name);
  for (const cookie of document.cookie.split(';')) {
    const name = cookie.split('=')[0].trim();
    if (name) document.cookie = `${name}=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT`;
  }
  localStorage.clear();
  sessionStorage.clear();
  const happyDOM = (window as unknown as { happyDOM?: { setURL(url: string): void } }).happyDOM;
  if (happyDOM) happyDOM.setURL(START_URL);
  else if (location.href !== START_URL) history.replaceState(null, '', '/');
}

// Testing Library's waitFor/findBy give up after 1 s by default: a bound a loaded machine breaks
// (a list that renders in 0.3 s alone takes seconds beside a build). Every such wait is for a
// condition, so a generous bound costs nothing when the condition comes.
if (typeof document !== 'undefined') {
  const { configure } = await import('@testing-library/dom');
  configure({ asyncUtilTimeout: 10_000 });
}

vi.resetModules();
// the packs, as every process installs them where it is put together (src/engine/packs.ts); imported
// after the reset, so that the file's own modules see them
const { installPacks } = await import('../../src/engine/packs.ts');
const { ENGINE_PACKS } = await import('../../src/packs/engine.ts');
installPacks(ENGINE_PACKS);
resetPage();
afterAll(() => {
  // what a file may have left switched on: fake timers, stubbed globals and environment variables
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
  resetPage();
});
