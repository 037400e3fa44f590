import type { StorybookConfig } from '@storybook/react-vite';

const config: StorybookConfig = {
  stories: ['../src/**/*.stories.tsx'],
  framework: { name: '@storybook/react-vite', options: {} },
  core: { disableTelemetry: true },
  // react-docgen (Babel) works with TypeScript 7; react-docgen-typescript needs the TS JS API
  typescript: { reactDocgen: 'react-docgen' },
  async viteFinal(config) {
    // the app's vite.config sets root to src/client; stories live across src/
    return { ...config, root: undefined };
  },
};

export default config;
