import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');

/**
 * The Node flags a package.json script runs an entry point with: the `--` words of the command in
 * `script` that names `entry` (`start` runs `node ... dist/server/main.js`). The benchmark starts
 * the product with them, and a test checks this Node accepts them.
 */
export function nodeFlagsOf(script: 'start' | 'worker', entry: string): string[] {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const run = (pkg.scripts[script] ?? '').split('&&').find((c) => c.includes(entry));
  if (!run) throw new Error(`package.json's "${script}" script does not run ${entry}`);
  return run
    .trim()
    .split(/\s+/)
    .filter((t) => t.startsWith('--'));
}
