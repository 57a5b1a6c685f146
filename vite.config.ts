import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The web app lives in src/web; `npm start` serves the built files from dist/web on the API's port.
// In `npm run dev` Vite serves the page with hot reload and forwards /api and the sandbox to the server.
const serverOrigin = `http://127.0.0.1:${process.env.PORT ?? '3000'}`;

export default defineConfig({
  root: 'src/web',
  plugins: [react(), tailwindcss()],
  build: { outDir: '../../dist/web', emptyOutDir: true, sourcemap: true },
  server: {
    host: '127.0.0.1',
    port: 5173,
    proxy: { '/api': serverOrigin, '/sandbox': serverOrigin },
  },
});
