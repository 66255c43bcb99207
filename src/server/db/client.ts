import fs from 'node:fs';
import path from 'node:path';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { projectRoot } from '../paths';
import { boundedPipelines } from './bounded-pipelines';
import * as schema from './schema';

export type Schema = typeof schema;
/** Both drivers (PGlite, postgres.js) and their transactions share this type. */
export type Db = PgDatabase<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;

export interface DbHandle {
  db: Db;
  kind: 'pglite' | 'postgres';
  migrate(): Promise<void>;
  close(): Promise<void>;
}

const migrationsFolder = path.join(projectRoot, 'drizzle');

export async function openDatabase(opts: { databaseUrl?: string; dataDir: string; max?: number }): Promise<DbHandle> {
  if (opts.databaseUrl) return openPostgres(opts.databaseUrl, opts.max);
  return openPglite(opts.dataDir);
}

async function openPostgres(url: string, max = 10): Promise<DbHandle> {
  const { default: postgres } = await import('postgres');
  const { drizzle } = await import('drizzle-orm/postgres-js');
  const { migrate } = await import('drizzle-orm/postgres-js/migrator');
  // JIT compiling costs ~300 ms on the short list and count queries of this app (docs/scale.md).
  const client = postgres(url, { max, onnotice: () => {}, connection: { jit: 'off' } });
  // No connection is given more statements than postgres.js can queue safely (bounded-pipelines.ts).
  const db: Db = drizzle({ client: boundedPipelines(client), schema });
  return {
    db,
    kind: 'postgres',
    async migrate() {
      // Several servers may start at once: one applies the migrations, the others wait for it.
      // A one-connection client keeps the session-level advisory lock and the migration together.
      const single = postgres(url, { max: 1, onnotice: () => {} });
      try {
        await single`select pg_advisory_lock(727274)`;
        await migrate(drizzle({ client: single, schema }), { migrationsFolder });
        await single`select pg_advisory_unlock(727274)`;
      } finally {
        await single.end({ timeout: 5 });
      }
    },
    close: () => client.end({ timeout: 5 }),
  };
}

async function openPglite(dataDir: string): Promise<DbHandle> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  // The search indexes need pg_trgm (drizzle/0001) and the appointments' no-overlap constraints
  // btree_gist (drizzle/0021); PGlite ships both as loadable contrib modules.
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const { btree_gist } = await import('@electric-sql/pglite/contrib/btree_gist');
  const dir = path.resolve(dataDir, 'pglite');
  fs.mkdirSync(dir, { recursive: true });
  const client = await PGlite.create(dir, { extensions: { pg_trgm, btree_gist } });
  const db: Db = drizzle({ client, schema });
  return {
    db,
    kind: 'pglite',
    migrate: () => migrate(drizzle({ client, schema }), { migrationsFolder }),
    close: () => client.close(),
  };
}
