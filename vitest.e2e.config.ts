import path from 'node:path';
import { defineConfig } from 'vitest/config';

/** Browser tests: `npm run test:e2e` builds the client, then drives Chromium against the real server. */
export default defineConfig({
  // The same import alias as tsconfig.json and vite.config.ts, for code under test.
  resolve: { alias: { '@shared': path.resolve(import.meta.dirname, 'src/shared') } },
  test: {
    include: ['tests/e2e/**/*.e2e.test.ts'],
    globalSetup: ['tests/e2e/setup/global-setup.ts'],
    pool: 'forks',
    // One server and one database for the run; files share them, so they run one after another.
    fileParallelism: false,
    maxWorkers: 1,
    testTimeout: 60_000,
    hookTimeout: 180_000,
    teardownTimeout: 60_000,
  },
});
