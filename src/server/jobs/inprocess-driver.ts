import { createHash } from 'node:crypto';
import { and, asc, count, desc, eq, inArray, lt, lte, or, sql } from 'drizzle-orm';
import type { AppDeps } from '../deps';
import { jobs } from '../db/schema';
import { isUuid } from '../domains/ids';
import { parsePayload } from './definitions';
import { runHandler, withHandlers, type HandlerMap } from './handlers';
import type { JobInfo, JobQueue, JobState } from './queue';
import { isReminderDue, REMINDER_JOB_KEY } from './schedule';
import { todayIn } from '../../shared/calendar';

type JobRow = typeof jobs.$inferSelect;

export interface InProcessOptions {
  /** Replaces some handlers (dependency injection: tests add a flaky one). */
  handlers?: Partial<HandlerMap>;
  /** How often the table is polled for due jobs (retries, delayed jobs, other servers' jobs). */
  pollMs?: number;
}

/** A job id derived from a caller's key: the same key always names the same row. */
export function rowIdForKey(key: string): string {
  const h = createHash('sha256').update(`job:${key}`).digest('hex');
  const variant = ((parseInt(h.charAt(16), 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const CLOSE_WAIT_MS = 10_000;
const KEEP_COMPLETED_DAYS = 7;

function toInfo(r: JobRow): JobInfo {
  return {
    id: r.id,
    name: r.name,
    state: r.status,
    attempts: r.attempts,
    maxAttempts: r.maxAttempts,
    progress: r.progress,
    failedReason: r.failedReason,
    createdAt: r.createdAt.toISOString(),
    finishedAt: r.finishedAt ? r.finishedAt.toISOString() : null,
  };
}

/**
 * The embedded-mode driver (no Redis): runs the same handlers as the BullMQ worker inside the
 * server, with the job state in the `jobs` table so a restart resumes what was queued.
 * A running job holds a lease (`locked_until`) that it renews while it runs; a job whose lease ran
 * out belongs to a process that died and is claimed again. Claims use SKIP LOCKED, so several
 * servers on one PostgreSQL share the table without running a job twice at once.
 */
export function createInProcessQueue(deps: AppDeps, opts: InProcessOptions = {}): JobQueue {
  const { config, db, log } = deps;
  const map = withHandlers(opts.handlers);
  const leaseMs = Math.max(config.JOB_STALLED_INTERVAL_MS, 1000);
  const running = new Map<string, Promise<void>>();
  let closed = false;
  let ticking = false;
  let again = false;
  /** The poll under way: close() waits for it, or a claim answered after close would still start jobs. */
  let polling: Promise<void> = Promise.resolve();
  let lastCleanup = 0;

  const backoffMs = (attempt: number) => config.JOB_BACKOFF_MS * 2 ** (attempt - 1);

  async function claim(n: number): Promise<JobRow[]> {
    const due = db
      .select({ id: jobs.id })
      .from(jobs)
      .where(
        or(
          and(eq(jobs.status, 'queued'), lte(jobs.runAt, sql`now()`)),
          and(eq(jobs.status, 'active'), lt(jobs.lockedUntil, sql`now()`)),
        ),
      )
      .orderBy(asc(jobs.runAt))
      .limit(n)
      .for('update', { skipLocked: true });
    return db
      .update(jobs)
      .set({
        status: 'active',
        attempts: sql`${jobs.attempts} + 1`,
        lockedUntil: sql`now() + ${leaseMs} * interval '1 millisecond'`,
      })
      .where(inArray(jobs.id, due))
      .returning();
  }

  /** Hands back jobs claimed while the driver was closing, untouched, for the next poller. */
  async function release(rows: JobRow[]) {
    await db
      .update(jobs)
      .set({ status: 'queued', attempts: sql`${jobs.attempts} - 1`, lockedUntil: null })
      .where(
        inArray(
          jobs.id,
          rows.map((r) => r.id),
        ),
      );
  }

  async function finish(row: JobRow, outcome: { ok: true; result: unknown } | { ok: false; reason: string }) {
    if (outcome.ok) {
      await db
        .update(jobs)
        .set({
          status: 'completed',
          result: outcome.result ?? null,
          failedReason: null,
          finishedAt: new Date(),
          lockedUntil: null,
        })
        .where(eq(jobs.id, row.id));
    } else if (row.attempts < row.maxAttempts) {
      await db
        .update(jobs)
        .set({
          status: 'queued',
          failedReason: outcome.reason,
          runAt: new Date(Date.now() + backoffMs(row.attempts)),
          lockedUntil: null,
        })
        .where(eq(jobs.id, row.id));
    } else {
      await db
        .update(jobs)
        .set({ status: 'failed', failedReason: outcome.reason, finishedAt: new Date(), lockedUntil: null })
        .where(eq(jobs.id, row.id));
    }
  }

  async function run(row: JobRow) {
    // Claimed more often than allowed: it keeps dying mid-run (each crash counts as an attempt).
    if (row.attempts > row.maxAttempts) {
      await finish(
        { ...row, attempts: row.maxAttempts },
        { ok: false, reason: row.failedReason ?? 'Job stalled more than allowable limit' },
      );
      return;
    }
    const ctx = {
      id: row.id,
      attempt: row.attempts,
      async updateProgress(pct: number) {
        const progress = Math.max(0, Math.min(100, Math.round(pct)));
        await db
          .update(jobs)
          .set({ progress })
          .where(and(eq(jobs.id, row.id), eq(jobs.status, 'active')));
      },
    };
    try {
      const result = await runHandler(map, deps, row.name, row.payload, ctx);
      await finish(row, { ok: true, result });
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      log.warn({ err, job: row.name, id: row.id, attempt: row.attempts }, 'job failed');
      await finish(row, { ok: false, reason });
    }
  }

  function start(row: JobRow) {
    const p = run(row)
      .catch((err) => log.error({ err, id: row.id }, 'could not record the outcome of a job'))
      .finally(() => {
        running.delete(row.id);
        kick();
      });
    running.set(row.id, p);
  }

  function tick(): Promise<void> {
    if (closed) return Promise.resolve();
    if (ticking) {
      again = true;
      return polling;
    }
    ticking = true;
    polling = poll();
    return polling;
  }

  async function poll() {
    try {
      while (!closed && running.size < config.JOB_CONCURRENCY) {
        const claimed = await claim(config.JOB_CONCURRENCY - running.size);
        if (claimed.length === 0) break;
        if (closed) {
          await release(claimed);
          break;
        }
        for (const row of claimed) start(row);
      }
    } catch (err) {
      if (!closed) log.error({ err }, 'job polling failed');
    } finally {
      ticking = false;
      if (again) {
        again = false;
        kick();
      }
    }
  }

  function kick() {
    if (!closed) setImmediate(() => void tick());
  }

  async function renewLeases() {
    if (running.size === 0) return;
    await db
      .update(jobs)
      .set({ lockedUntil: sql`now() + ${leaseMs} * interval '1 millisecond'` })
      .where(and(inArray(jobs.id, [...running.keys()]), eq(jobs.status, 'active')));
  }

  /** The daily reminder: at most one run per date, however often this is called or restarted. */
  async function scheduleTick() {
    const now = new Date();
    if (isReminderDue(config, now)) {
      await queue.enqueue('send-overdue-reminders', {}, { jobId: REMINDER_JOB_KEY(todayIn(config.TIME_ZONE, now)) });
    }
    if (Date.now() - lastCleanup > 3600_000) {
      lastCleanup = Date.now();
      await db
        .delete(jobs)
        .where(
          and(
            eq(jobs.status, 'completed'),
            lt(jobs.finishedAt, sql`now() - ${KEEP_COMPLETED_DAYS} * interval '1 day'`),
          ),
        );
    }
  }

  const timers: NodeJS.Timeout[] = [
    setInterval(() => void tick(), opts.pollMs ?? 1000),
    setInterval(
      () => void renewLeases().catch((err) => log.error({ err }, 'job lease renewal failed')),
      Math.floor(leaseMs / 2),
    ),
  ];
  if (!config.REMINDER_SCHEDULE && config.AUDIT_RETENTION_MONTHS) {
    // The embedded server is the only process: without its daily run, retention never happens.
    log.warn('AUDIT_RETENTION_MONTHS is set but REMINDER_SCHEDULE is off: the audit archive will not run');
  }
  if (config.REMINDER_SCHEDULE) {
    const onSchedule = () =>
      void scheduleTick().catch((err) => !closed && log.error({ err }, 'reminder schedule failed'));
    timers.push(setInterval(onSchedule, 60_000));
    setImmediate(onSchedule);
  }
  for (const t of timers) t.unref();

  const queue: JobQueue = {
    driver: 'inprocess',

    async enqueue(name, payload, o = {}) {
      const id = o.jobId ? rowIdForKey(o.jobId) : crypto.randomUUID();
      // The jobs table is itself in the database: inside the caller's transaction it is the outbox.
      await (o.tx ?? db)
        .insert(jobs)
        .values({
          id,
          name,
          payload: parsePayload(name, payload),
          maxAttempts: config.JOB_ATTEMPTS,
          runAt: new Date(Date.now() + (o.delayMs ?? 0)),
        })
        .onConflictDoNothing({ target: jobs.id });
      kick();
      return { id };
    },

    async enqueueMany(name, items, common = {}) {
      if (items.length === 0) return;
      const now = Date.now();
      await (common.tx ?? db)
        .insert(jobs)
        .values(
          items.map(({ payload, opts: o = {} }) => ({
            id: o.jobId ? rowIdForKey(o.jobId) : crypto.randomUUID(),
            name,
            payload: parsePayload(name, payload),
            maxAttempts: config.JOB_ATTEMPTS,
            runAt: new Date(now + (o.delayMs ?? 0)),
          })),
        )
        .onConflictDoNothing({ target: jobs.id });
      kick();
    },

    async status({ state, limit }) {
      const [grouped, rows] = await Promise.all([
        db.select({ status: jobs.status, n: count() }).from(jobs).groupBy(jobs.status),
        db
          .select()
          .from(jobs)
          .where(state ? eq(jobs.status, state) : undefined)
          .orderBy(desc(jobs.createdAt), desc(jobs.id))
          .limit(limit),
      ]);
      const counts: Record<JobState, number> = { queued: 0, active: 0, completed: 0, failed: 0 };
      for (const g of grouped) counts[g.status] = g.n;
      return { counts, jobs: rows.map(toInfo) };
    },

    async retry(id) {
      if (!isUuid(id)) return 'not-found';
      const [row] = await db
        .update(jobs)
        .set({ status: 'queued', attempts: 0, progress: 0, failedReason: null, finishedAt: null, runAt: new Date() })
        .where(and(eq(jobs.id, id), eq(jobs.status, 'failed')))
        .returning({ id: jobs.id });
      if (row) {
        kick();
        return 'retried';
      }
      const [exists] = await db.select({ id: jobs.id }).from(jobs).where(eq(jobs.id, id)).limit(1);
      return exists ? 'not-failed' : 'not-found';
    },

    async close() {
      closed = true;
      for (const t of timers) clearInterval(t);
      await polling;
      // Let running jobs finish; one that does not is resumed after its lease runs out.
      const all = Promise.allSettled([...running.values()]);
      await Promise.race([all, new Promise((r) => setTimeout(r, CLOSE_WAIT_MS).unref())]);
    },
  };
  return queue;
}
