import react from '@vitejs/plugin-react';
import { defineConfig, transformWithOxc, type Plugin } from 'vite';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';
import { dirname, resolve } from 'node:path';
import { constants } from 'node:zlib';
import { compileCatalog } from './src/client/i18n/compile.ts';

// Chunks (issue #24). Left to itself, Rolldown makes a chunk of every set of lazy pages that share a
// module: with antd's components shared in every combination, the signed-in shell fetched some 80
// files, most under 5 KB. The groups below make one chunk per part of the app that loads together:
// the first bundle (login), the schema catalog, the signed-in shell with the home page, and the
// document pages. A group takes what its roots reach through static imports, and nothing that
// another page needs without them: ECharts, bpmn-js and the workflow designer, the print form, the
// shell's and the admin screens' dialogs stay in chunks of their own, fetched by the screen that
// uses them.

type ModuleGraph = { getModuleInfo(id: string): { importedIds: readonly string[]; code: string | null } | null };

// antd's and the icons' index re-export every component: following all of its imports would take
// the whole library (every part some page uses) into a chunk. Through these two, only the names the
// importer asks for are followed.
const BARREL = /node_modules[\\/](antd|@ant-design[\\/]icons)[\\/]es[\\/]index\.js$/;

function namesImported(code: string, from: string): string[] {
  const names: string[] = [];
  for (const m of code.matchAll(new RegExp(`import\\s*\\{([^}]*)\\}\\s*from\\s*['"]${from}['"]`, 'g')))
    for (const part of m[1].split(',')) {
      const name = part.trim().split(/\s+as\s+/)[0];
      if (name && !name.startsWith('type ')) names.push(name);
    }
  return names;
}

/** The modules of a barrel that an importer's named imports from it come from. */
function throughBarrel(graph: ModuleGraph, barrel: string, importer: string): string[] {
  const code = graph.getModuleInfo(importer)?.code ?? '';
  if (barrel.includes('icons')) return namesImported(code, '@ant-design/icons').map((n) => resolve(dirname(barrel), 'icons', `${n}.js`));
  const dirs = new Map(
    [...(graph.getModuleInfo(barrel)?.code ?? '').matchAll(/export \{ default as (\w+) \} from ['"]\.\/([\w-]+)['"]/g)].map((m) => [
      m[1],
      m[2],
    ]),
  );
  return namesImported(code, 'antd').flatMap((n) => (dirs.has(n) ? [resolve(dirname(barrel), dirs.get(n)!, 'index.js')] : []));
}

/** The modules that loading the roots runs (their static imports, transitively), the roots included. */
function staticClosure(graph: ModuleGraph, roots: string[]): Set<string> {
  const seen = new Set<string>();
  const stack = roots.map((r) => resolve(import.meta.dirname, 'src/client', r));
  while (stack.length) {
    const id = stack.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    for (const next of graph.getModuleInfo(id)?.importedIds ?? [])
      stack.push(...(BARREL.test(next) ? throughBarrel(graph, next, id) : [next]));
  }
  return seen;
}

/**
 * One chunk of what the roots reach, less what the `unless` roots reach (those modules are left to
 * Rolldown's own splitting, so that the other page does not load this chunk for them). The closure is
 * taken here, not by Rolldown (includeDependenciesRecursively), which would go through the barrels.
 */
function closureGroup(name: string, priority: number, roots: string[], unless: string[] = []) {
  let members: Set<string> | undefined;
  const member = (id: string, graph: ModuleGraph) => {
    if (!members) {
      const others = staticClosure(graph, unless);
      members = new Set([...staticClosure(graph, roots)].filter((m) => !others.has(m)));
    }
    return members.has(id);
  };
  return { name: (id: string, ctx: ModuleGraph) => (member(id, ctx) ? name : null), priority, includeDependenciesRecursively: false };
}

/** Screens that are no document page: they load no part of the document pages' chunk. */
const OTHER_SCREENS = [
  '../packs/cost/client/stats/ProjectStatistics.tsx',
  'pages/ErrorPage.tsx',
  'pages/Iframe.tsx',
  'pages/Lock.tsx',
  'pages/Profile.tsx',
  'shell/ErrorLog.tsx',
  'shell/SwitchDialog.tsx',
  'shell/notifications/MessageDrawer.tsx',
  'shell/notifications/MessageDetail.tsx',
];

// The client's catalogs (src/client/i18n/messages.ts, messages.en.ts) reach the browser compiled into
// react-intl's message syntax tree, so that it never parses a message: the bundle takes formatjs's
// parser in its no-parser build, as formatjs documents for precompiled messages (some 6 KB of Brotli
// on the first page). A build only: the dev server and the tests parse the catalogs' strings.
const CATALOG = /[\\/]src[\\/]client[\\/]i18n[\\/]messages(\.en)?\.ts$/;

function compiledMessages(): Plugin {
  return {
    name: 'zhusuan:compiled-messages',
    apply: 'build',
    enforce: 'pre',
    config: () => ({
      resolve: {
        alias: [{ find: /^@formatjs\/icu-messageformat-parser$/, replacement: '@formatjs/icu-messageformat-parser/no-parser.js' }],
      },
    }),
    async transform(code, id) {
      if (!CATALOG.test(id)) return null;
      // a catalog is plain data: its exports, evaluated, are objects of strings
      const { code: js } = await transformWithOxc(code, id, { lang: 'ts' });
      const exports: Record<string, Record<string, string>> = await import(
        `data:text/javascript;base64,${Buffer.from(js).toString('base64')}`
      );
      return Object.entries(exports)
        .map(([name, messages]) => `export const ${name} = ${JSON.stringify(compileCatalog(messages))};`)
        .join('\n');
    },
  };
}

// The browser client: src/client, built into dist/client, which the server serves on its own port.
export default defineConfig({
  root: 'src/client',
  publicDir: false,
  plugins: [
    react(),
    compiledMessages(),
    // a .br and a .gz beside every text asset, made once at build time at the best level: the server
    // (@fastify/static preCompressed) sends the one the browser accepts, so nothing is compressed per request
    compression({
      algorithms: [
        defineAlgorithm('brotliCompress', { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
        defineAlgorithm('gzip', { level: 9 }),
      ],
      threshold: 0,
      logLevel: 'silent',
    }),
  ],
  // the shell loads the schema set from the server (src/client/renderers/catalog.ts): the schema
  // files are not bundled into it; Storybook sets this to false and bundles them
  define: { 'import.meta.env.ZS_SCHEMAS_FROM_SERVER': 'true' },
  build: {
    outDir: '../../dist/client',
    emptyOutDir: true,
    chunkSizeWarningLimit: 2000,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // the login page's bundle: one file instead of the entry and the nine pieces it shared with lazy chunks
            { name: 'index', tags: ['$initial'], priority: 40 },
            // the schema engine every signed-in page waits for (CatalogGate); its own file, fetched beside the shell
            closureGroup('catalog', 30, ['renderers/catalog.ts']),
            // everything inside the layout, and home, the page after sign-in
            closureGroup('shell', 20, ['app/ShellProviders.tsx', 'app/CatalogGate.tsx', 'shell/Layout.tsx', 'pages/Home.tsx']),
            // the document pages (list, form, detail), less what they share with the other screens: the
            // statistics page, the pages outside the layout, the profile and the shell's dialogs
            closureGroup('documents', 10, ['renderers/EntityPage.tsx'], OTHER_SCREENS),
          ],
        },
      },
    },
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:8080' },
  },
});
