import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The browser client: src/client, built into dist/client, which the server serves on its own port.
export default defineConfig({
  root: 'src/client',
  publicDir: false,
  plugins: [react()],
  // the shell loads the schema set from the server (src/client/renderers/catalog.ts): the schema
  // files are not bundled into it; Storybook sets this to false and bundles them
  define: { 'import.meta.env.ZS_SCHEMAS_FROM_SERVER': 'true' },
  build: {
    outDir: '../../dist/client',
    emptyOutDir: true,
    chunkSizeWarningLimit: 2000,
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:8080' },
  },
});
