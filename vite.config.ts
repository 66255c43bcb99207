import path from 'node:path';
import tailwindcss from '@tailwindcss/vite';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** The API server `npm run dev` starts next to Vite (scripts/dev.mjs). */
const apiTarget = `http://localhost:${process.env.API_PORT ?? process.env.PORT ?? 3000}`;

export default defineConfig({
  plugins: [
    // The router plugin must run before the React plugin (it rewrites route files).
    tanstackRouter({
      target: 'react',
      routesDirectory: './src/client/routes',
      generatedRouteTree: './src/client/routeTree.gen.ts',
      autoCodeSplitting: true,
      quoteStyle: 'single',
    }),
    react(),
    tailwindcss(),
  ],
  resolve: {
    alias: {
      '@shared': path.resolve(import.meta.dirname, 'src/shared'),
      '@': path.resolve(import.meta.dirname, 'src/client'),
    },
  },
  server: {
    port: Number(process.env.VITE_PORT ?? 5173),
    // The browser's Host is kept (changeOrigin false; the string shorthand would rewrite it) so
    // the server's same-origin check accepts cookie-authenticated writes.
    proxy: {
      '/api': { target: apiTarget, changeOrigin: false },
      '/trpc': { target: apiTarget, changeOrigin: false },
    },
  },
  build: {
    // src/server/app.ts serves this directory with SPA fallback.
    outDir: 'dist/client',
    emptyOutDir: true,
    chunkSizeWarningLimit: 800,
    rollupOptions: {
      // Two pages: the back-office (index.html) and the portal (portal.html), each with its own
      // entry, so the portal never loads the back-office's screens or libraries.
      input: {
        main: path.resolve(import.meta.dirname, 'index.html'),
        portal: path.resolve(import.meta.dirname, 'portal.html'),
      },
      output: {
        // zod decides whether to compile parsers with `new Function` when a schema is built, and
        // shared chunks build schemas before the entry's body runs. Bundling zod-config with zod
        // makes `jitless` part of the chunk every schema imports, so it is set before any schema
        // exists and the page never probes eval (which the CSP reports as a violation).
        manualChunks(id) {
          if (id.includes('/node_modules/zod/') || id.endsWith('/src/client/lib/zod-config.ts')) return 'zod';
          return undefined;
        },
      },
    },
  },
});
