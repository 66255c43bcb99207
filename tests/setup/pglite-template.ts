import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../src/server/db/client';
import { projectRoot } from '../../src/server/paths';

/**
 * An embedded (PGlite) data folder, initialised and migrated once per set of migrations and PGlite
 * version. A fresh folder costs PGlite's initdb and every migration (about ten seconds here, far
 * more on a loaded machine); an embedded test app starts on a copy of this one instead, and the
 * server still runs its migrations at start (nothing to apply on the copy). Kept in the system's
 * temporary folder under a key of its inputs, so an unchanged set is built once, not per run.
 */
export async function preparePgliteTemplate(): Promise<string> {
  const dir = path.join(os.tmpdir(), `backoffice-pglite-template-${templateKey()}`);
  if (fs.existsSync(dir)) return dir;
  const building = fs.mkdtempSync(`${dir}.building-`);
  try {
    const handle = await openDatabase({ dataDir: building });
    try {
      await handle.migrate();
    } finally {
      await handle.close();
    }
    // The rename is atomic: a folder under the final name is always complete. If another run
    // finished first, its copy is the same, and this one is dropped.
    fs.renameSync(building, dir);
  } catch (err) {
    fs.rmSync(building, { recursive: true, force: true });
    if (!fs.existsSync(dir)) throw err;
  }
  return dir;
}

function templateKey(): string {
  const hash = createHash('sha256');
  const pglite = JSON.parse(
    fs.readFileSync(path.join(projectRoot, 'node_modules/@electric-sql/pglite/package.json'), 'utf8'),
  ) as { version: string };
  hash.update(pglite.version);
  const folder = path.join(projectRoot, 'drizzle');
  const files = [
    'meta/_journal.json',
    ...fs
      .readdirSync(folder)
      .filter((f) => f.endsWith('.sql'))
      .sort(),
  ];
  for (const f of files) hash.update(`\0${f}\0`).update(fs.readFileSync(path.join(folder, f)));
  return hash.digest('hex').slice(0, 16);
}
