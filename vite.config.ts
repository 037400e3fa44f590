import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';
import { constants } from 'node:zlib';

// The browser client: src/client, built into dist/client, which the server serves on its own port.
export default defineConfig({
  root: 'src/client',
  publicDir: false,
  plugins: [
    react(),
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
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:8080' },
  },
});
