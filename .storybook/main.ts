import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { StorybookConfig } from '@storybook/react-vite';
import { documentIndexer, documentStoriesPlugin } from './documents.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const config: StorybookConfig = {
  // the manifest is indexed too: an entry per document type (documents.ts)
  stories: ['../src/**/*.stories.tsx', '../entities.manifest.json'],
  experimental_indexers: async (existing) => [documentIndexer, ...(existing ?? [])],
  framework: { name: '@storybook/react-vite', options: {} },
  core: { disableTelemetry: true },
  // react-docgen (Babel) works with TypeScript 7; react-docgen-typescript needs the TS JS API
  typescript: { reactDocgen: 'react-docgen' },
  async viteFinal(config) {
    // the app's vite.config sets root to src/client; stories live across src/. Stories compile
    // the bundled schema files: there is no server to load them from. No .br/.gz copies: no server sends them
    const plugins = [documentStoriesPlugin(root), ...(config.plugins ?? [])].filter(
      (plugin) => !(plugin && 'name' in plugin && plugin.name === 'vite-plugin-compression'),
    );
    // the app's chunk groups (vite.config.ts) name the app's routes: Storybook's bundle is split its own way
    const output = config.build?.rolldownOptions?.output;
    const build =
      output && !Array.isArray(output)
        ? { ...config.build, rolldownOptions: { ...config.build?.rolldownOptions, output: { ...output, codeSplitting: undefined } } }
        : config.build;
    return { ...config, root: undefined, plugins, build, define: { ...config.define, 'import.meta.env.ZS_SCHEMAS_FROM_SERVER': 'false' } };
  },
};

export default config;
