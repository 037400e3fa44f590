import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The browser client: src/client, built into dist/client, which the server serves on its own port.
export default defineConfig({
  root: 'src/client',
  publicDir: false,
  plugins: [react()],
  build: {
    outDir: '../../dist/client',
    emptyOutDir: true,
    chunkSizeWarningLimit: 2000,
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:8080' },
  },
});
