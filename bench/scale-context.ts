/**
 * What the scale benchmarks share: a service context as the tRPC and REST adapters build it,
 * a superadmin to act as, and small helpers over query results and timings.
 */
import { pino } from 'pino';
import postgres from 'postgres';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/postgres-js';
import { SessionCache } from '../src/server/auth/session-cache';
import type { Actor } from '../src/server/auth/sessions';
import { loadConfig } from '../src/server/config';
import { openDatabase, type Db, type DbHandle } from '../src/server/db/client';
import { startServices } from '../tests/setup/services';
import * as schema from '../src/server/db/schema';
import type { ServiceContext } from '../src/server/domains/context';
import { readCache } from '../src/server/domains/read-cache';
import type { AppDeps } from '../src/server/deps';
import type { JobQueue } from '../src/server/jobs/queue';

/** postgres.js answers an array of rows, PGlite `{ rows }`. */
export function rowsOf<T>(result: unknown): T[] {
  return Array.isArray(result) ? (result as T[]) : ((result as { rows: T[] }).rows ?? []);
}

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)]!;
};

/** The p-th percentile (nearest rank). */
export const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? NaN;
};

/**
 * Times two ways of doing one thing, `runs` times each, interleaved A B B A A B … so a drift in
 * the machine's load weighs on both alike. Each gets the run's number; the answer is in ms.
 */
export async function interleaved(
  runs: number,
  a: (run: number) => Promise<unknown>,
  b: (run: number) => Promise<unknown>,
): Promise<{ a: number[]; b: number[] }> {
  const times = { a: [] as number[], b: [] as number[] };
  for (let run = 0; run < runs; run++) {
    const order = run % 2 === 0 ? (['a', 'b'] as const) : (['b', 'a'] as const);
    for (const which of order) {
      const t = performance.now();
      await (which === 'a' ? a : b)(run);
      times[which].push(performance.now() - t);
    }
  }
  return times;
}

/** One statement a client sent, as postgres.js reports it. */
export interface Captured {
  query: string;
  params: unknown[];
}

/**
 * A fresh database named `<prefix>_<now>` on the benchmark's server, with two pools on it as the
 * product builds its own (jit off): `db` through drizzle, which can record the statements it
 * sends, and `bare` for replaying them without the product's code. `drop` ends both and removes it.
 */
export async function benchDatabase(serverUrl: string, prefix: string) {
  const name = `${prefix}_${Date.now()}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  let recording: Captured[] | null = null;
  const client = postgres(url.toString(), {
    max: 5,
    onnotice: () => {},
    connection: { jit: 'off' },
    debug: (_conn, query, params) => recording?.push({ query, params: params as unknown[] }),
  });
  const bare = postgres(url.toString(), { max: 5, onnotice: () => {}, connection: { jit: 'off' } });
  const drop = async () => {
    await client.end({ timeout: 5 }).catch(() => {});
    await bare.end({ timeout: 5 }).catch(() => {});
    await admin.unsafe(`drop database if exists ${name} with (force)`).catch(() => {});
    await admin.end();
  };
  try {
    await admin.unsafe(`create database ${name}`);
  } catch (err) {
    await drop();
    throw err;
  }
  const pg = drizzle({ client, schema });
  const db: Db = pg;
  return {
    name,
    /** For drizzle's migrator. */
    pg,
    db,
    bare,
    drop,
    /** Runs `fn` and answers the statements it sent through `db`. */
    async record(fn: () => Promise<unknown>): Promise<Captured[]> {
      recording = [];
      try {
        await fn();
        return recording;
      } finally {
        recording = null;
      }
    },
  };
}

/**
 * The frame of the scale benchmarks (search, calendar, classes): PostgreSQL as the tests start
 * it, a fresh database named `<prefix>_<now>` opened and migrated as the product opens it, a bare
 * postgres.js pool on it for the baselines, and everything stopped and dropped afterwards.
 */
export async function withScaleDatabase(
  prefix: string,
  run: (on: { handle: DbHandle; bare: postgres.Sql }) => Promise<void>,
): Promise<void> {
  const services = await startServices();
  const dbName = `${prefix}_${Date.now()}`;
  const admin = postgres(services.databaseUrl, { max: 1, onnotice: () => {} });
  const url = new URL(services.databaseUrl);
  url.pathname = `/${dbName}`;
  let handle: DbHandle | null = null;
  let bare: postgres.Sql | null = null;
  try {
    console.log(`PostgreSQL from ${services.source}; database ${dbName}`);
    await admin.unsafe(`create database ${dbName}`);
    handle = await openDatabase({ databaseUrl: url.toString(), dataDir: '', max: 5 });
    await handle.migrate();
    bare = postgres(url.toString(), { max: 5, onnotice: () => {}, connection: { jit: 'off' } });
    await run({ handle, bare });
  } finally {
    await bare?.end({ timeout: 5 });
    if (handle) await handle.close();
    await admin.unsafe(`drop database if exists ${dbName} with (force)`).catch(() => {});
    await admin.end();
    await services.stop();
  }
}

export function contextFor(handle: DbHandle, actor: Actor): ServiceContext {
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', REMINDER_SCHEDULE: 'false' });
  // Queues nothing: the benchmark measures finding the reminders, not sending them.
  const jobs = {
    driver: 'inprocess',
    enqueue: async () => ({ id: 'bench' }),
    enqueueMany: async () => {},
  } as unknown as JobQueue;
  const deps: AppDeps = {
    config,
    dbHandle: handle,
    db: handle.db,
    jobs,
    log: pino({ level: 'silent' }),
    sessionPolicy: { idleMs: 1, maxMs: 1 },
    sessionCache: new SessionCache(0),
    cache: readCache(),
  };
  return { db: handle.db, actor, deps };
}

export async function superadmin(db: Db): Promise<Actor> {
  const rows = await db.execute(
    sql`insert into users (username, full_name, email, password_hash, role) values ('bench-superadmin', 'Bench Superadmin', 'bench-superadmin@example.com', 'x', 'superadmin')
        returning id, email, username, full_name, branch_id`,
  );
  const r = rowsOf<{ id: string; email: string; username: string; full_name: string; branch_id: string | null }>(
    rows,
  )[0]!;
  return {
    id: r.id,
    role: 'superadmin',
    email: r.email,
    username: r.username,
    fullName: r.full_name,
    branchId: r.branch_id,
    sessionId: 'bench',
  };
}
