import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// In development, Vite serves the app and forwards /ws to an agent started with
// `--allow-origin http://localhost:5173` (see `pnpm dev`). In production the agent serves dist/.
const agentPort = Number(process.env.PAGELENS_AGENT_PORT ?? 7070);

export default defineConfig({
  plugins: [react()],
  // Module workers (both are created with type: 'module'), so a worker's dynamic import stays a chunk
  // of its own: sql.js is fetched only when a .db is opened (import-db.ts), not with every import.
  worker: { format: 'es' },
  build: {
    target: 'es2022',
    sourcemap: true,
    chunkSizeWarningLimit: 1500,
  },
  server: {
    port: 5173,
    strictPort: true,
    proxy: {
      '/ws': { target: `http://127.0.0.1:${agentPort}`, ws: true },
    },
  },
});
