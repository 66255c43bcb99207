import fs from 'node:fs';
import path from 'node:path';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { projectRoot } from '../paths';
import { boundedPipelines } from './bounded-pipelines';
import { rememberHowPrepared } from './prepared';
import { mapRowsOnce } from './row-mapping';
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
  const { PostgresJsSession } = await import('drizzle-orm/postgres-js/session');
  mapRowsOnce(PostgresJsSession);
  await preparedStatementsOnly();
  rememberHowPrepared(PostgresJsSession);
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

/**
 * Every drizzle query on PostgreSQL runs as a named (prepared) statement, as postgres.js's own
 * tagged queries do. drizzle asks postgres.js for an unnamed statement unless the query was
 * `.prepare()`d, and postgres.js then sends each query with parameters in two round trips (parse
 * and describe, to learn the parameters' types, then bind and execute) and PostgreSQL parses and
 * plans it anew every time. A named statement is described once per connection (postgres.js keeps
 * its description per connection and SQL text, and replaces a connection after 30 to 60 minutes),
 * then runs in one round trip (docs/performance.md#where-the-products-time-goes). Transactions run
 * on sessions of the same class, so their statements are prepared too.
 *
 * Except, left to postgres.js, a query without parameters: postgres.js sends it by the simple
 * protocol, which PostgreSQL parses and plans on every run. The statements built once
 * (`.prepare(name)`, db/prepared.ts) run by the extended protocol whatever their parameters
 * (postgres.js's `simple: false`, an option its types leave out; tests/integration/plans.test.ts
 * fails if it stops working), so a list page whose only values are written into it (its size,
 * `pageLimit`) keeps its plan (docs/performance.md#a-pages-size-in-its-statement). Each is a
 * single statement; the other queries keep postgres.js's choice, because a migration may hold
 * several statements, which only the simple protocol runs.
 */
let patched = false;
async function preparedStatementsOnly() {
  if (patched) return;
  patched = true;
  const { PostgresJsSession } = await import('drizzle-orm/postgres-js/session');
  const proto = PostgresJsSession.prototype;
  // eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the session as `this`
  const prepareQuery = proto.prepareQuery;
  proto.prepareQuery = function (this: typeof proto, query, fields, name, ...rest) {
    // drizzle prepares (`prepare: true`) exactly when a name is given; postgres.js names it itself.
    const prepared = prepareQuery.call(this, query, fields, name ?? 'statement', ...rest);
    if (name !== undefined && query.params.length === 0) {
      const own = prepared as unknown as { client: UnsafeClient };
      own.client = extendedProtocol(own.client);
    }
    return prepared;
  } as typeof prepareQuery;
}

/** What drizzle's prepared query asks of postgres.js: `unsafe` alone. */
interface UnsafeClient {
  unsafe(query: string, params: unknown[], options?: Record<string, unknown>): unknown;
}
const extended = new WeakMap<UnsafeClient, UnsafeClient>();
function extendedProtocol(client: UnsafeClient): UnsafeClient {
  let c = extended.get(client);
  if (!c) {
    c = { unsafe: (query, params, options) => client.unsafe(query, params, { ...options, simple: false }) };
    extended.set(client, c);
  }
  return c;
}

async function openPglite(dataDir: string): Promise<DbHandle> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { PgliteSession } = await import('drizzle-orm/pglite/session');
  mapRowsOnce(PgliteSession);
  rememberHowPrepared(PgliteSession);
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  // The search indexes need pg_trgm (drizzle/0001); PGlite ships it as a loadable contrib module.
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const dir = path.resolve(dataDir, 'pglite');
  fs.mkdirSync(dir, { recursive: true });
  const client = await PGlite.create(dir, { extensions: { pg_trgm } });
  const db: Db = drizzle({ client, schema });
  return {
    db,
    kind: 'pglite',
    migrate: () => migrate(drizzle({ client, schema }), { migrationsFolder }),
    close: () => client.close(),
  };
}
