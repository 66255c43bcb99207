import fs from 'node:fs';

/** Reads ./.env when present (Node's own parser); real environment variables win. */
export function loadDotEnv(file = '.env') {
  if (fs.existsSync(file)) process.loadEnvFile(file);
}
