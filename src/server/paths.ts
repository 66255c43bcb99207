import fs from 'node:fs';
import path from 'node:path';

/**
 * The folder holding package.json. The server runs both from source (tests, `npm run dev`) and
 * from the bundle in dist/server (`npm start`), so files it reads at run time (migrations, the
 * built client) are found from here rather than relative to the running module.
 */
function findProjectRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json')) && fs.existsSync(path.join(dir, 'drizzle'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`No project root (package.json beside drizzle/) above ${from}`);
  }
}

export const projectRoot = findProjectRoot(import.meta.dirname);
