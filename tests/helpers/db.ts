import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { inject } from 'vitest';
import { openDatabase, type DbHandle } from '../../src/server/db/client';
import { withDatabase } from '../setup/services';

/** A fresh, migrated database for one test file, cloned from the template in milliseconds. */
export async function createTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const adminUrl = inject('adminDatabaseUrl');
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name} template ${inject('templateDatabase')}`);
  await admin.end();
  return {
    url: withDatabase(adminUrl, name),
    async drop() {
      const a = postgres(adminUrl, { max: 1, onnotice: () => {} });
      await a.unsafe(`drop database if exists ${name} with (force)`);
      await a.end();
    },
  };
}

/**
 * A database opened the way the server opens it, on either driver: a fresh PostgreSQL database, or
 * PGlite in a fresh folder (the embedded mode). `close` closes it and removes it.
 */
export async function openTestDatabase(
  driver: 'postgres' | 'pglite',
): Promise<{ handle: DbHandle; close(): Promise<void> }> {
  if (driver === 'postgres') {
    const d = await createTestDatabase();
    const handle = await openDatabase({ databaseUrl: d.url, dataDir: '' });
    return { handle, close: () => handle.close().then(() => d.drop()) };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pglite-test-'));
  const handle = await openDatabase({ dataDir: dir });
  return { handle, close: () => handle.close().then(() => fs.rmSync(dir, { recursive: true, force: true })) };
}
