import path from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The same import alias as tsconfig.json and vite.config.ts, for code under test.
  resolve: { alias: { '@shared': path.resolve(import.meta.dirname, 'src/shared') } },
  test: {
    include: ['src/**/*.test.ts', 'scripts/**/*.test.ts', 'tests/integration/**/*.test.ts'],
    globalSetup: ['tests/setup/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The servers start once per run (global setup); each file gets its own database.
    fileParallelism: true,
  },
});
