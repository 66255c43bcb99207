/**
 * What the scale benchmarks share: a service context as the tRPC and REST adapters build it,
 * a superadmin to act as, and small helpers over query results and timings.
 */
import { pino } from 'pino';
import { sql } from 'drizzle-orm';
import { SessionCache } from '../src/server/auth/session-cache';
import type { Actor } from '../src/server/auth/sessions';
import { loadConfig } from '../src/server/config';
import type { Db, DbHandle } from '../src/server/db/client';
import type { ServiceContext } from '../src/server/domains/common';
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
  };
  return { db: handle.db, actor, deps };
}

export async function superadmin(db: Db): Promise<Actor> {
  const rows = await db.execute(
    sql`insert into users (username, full_name, email, password_hash, role) values ('bench-superadmin', 'Bench Superadmin', 'bench-superadmin@example.com', 'x', 'superadmin')
        returning id, email, username, branch_id`,
  );
  const r = rowsOf<{ id: string; email: string; username: string; branch_id: string | null }>(rows)[0]!;
  return {
    id: r.id,
    role: 'superadmin',
    email: r.email,
    username: r.username,
    branchId: r.branch_id,
    sessionId: 'bench',
  };
}
