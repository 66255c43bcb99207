import { Queue, Worker, type Job, type JobsOptions, type JobType } from 'bullmq';
import { Redis } from 'ioredis';
import type { AppDeps } from '../deps';
import { asc, inArray, isNull, lt } from 'drizzle-orm';
import type { Db } from '../db/client';
import { firstRow } from '../db/rows';
import { jobOutbox } from '../db/schema';
import { jobIdFor, parsePayload, type JobName } from './definitions';
import { runHandler, withHandlers, type HandlerMap } from './handlers';
import { JOB_STATES, type EnqueueOptions, type JobInfo, type JobQueue, type JobState } from './queue';
import { REMINDER_SCHEDULER_ID, reminderCron } from './schedule';

/** One queue for every job; the job name picks the handler. */
export const QUEUE_NAME = 'backoffice';

const BULL_TYPES: Record<JobState, JobType[]> = {
  queued: ['waiting', 'delayed', 'prioritized', 'waiting-children'],
  active: ['active'],
  completed: ['completed'],
  failed: ['failed'],
};

function jobOptions(config: AppDeps['config']): JobsOptions {
  return {
    attempts: config.JOB_ATTEMPTS,
    backoff: { type: 'exponential', delay: config.JOB_BACKOFF_MS },
    // Completed jobs stay a day (their ids dedupe repeated enqueues), failed ones two weeks for the admin.
    removeOnComplete: { age: 24 * 3600, count: 5000 },
    removeOnFail: { age: 14 * 24 * 3600, count: 5000 },
  };
}

function requireRedisUrl(deps: AppDeps): string {
  if (!deps.config.REDIS_URL) throw new Error('REDIS_URL is not set');
  return deps.config.REDIS_URL;
}

function toInfo(job: Job, state: JobState): JobInfo {
  const progress = typeof job.progress === 'number' ? job.progress : 0;
  return {
    id: job.id ?? '',
    name: job.name,
    state,
    attempts: state === 'active' ? job.attemptsMade + 1 : job.attemptsMade,
    maxAttempts: job.opts.attempts ?? 1,
    progress,
    failedReason: job.failedReason || null,
    createdAt: new Date(job.timestamp).toISOString(),
    finishedAt: job.finishedOn ? new Date(job.finishedOn).toISOString() : null,
  };
}

/** How often the relay looks for jobs not yet handed to Redis (it is also nudged after each enqueue). */
const RELAY_INTERVAL_MS = 1000;
const RELAY_BATCH = 500;
/** Handed-over rows are kept this long (for inspection), then deleted by the relay. */
const OUTBOX_KEEP_MS = 24 * 3600_000;

/**
 * The producer side (every server, and the worker for the jobs its handlers queue).
 *
 * Enqueueing writes the job to the `job_outbox` table — in the caller's transaction when it passes
 * one — and never talks to Redis, so a request does not fail or hang because Redis is away. A
 * relay hands pending rows to BullMQ: right after an enqueue, and every second. It takes rows
 * with FOR UPDATE SKIP LOCKED, so several servers share the work, and marks them handed over in
 * the same transaction; a crash in between hands a row over twice, which BullMQ's job id turns
 * into one job (docs/jobs.md#the-outbox).
 *
 * The daily reminder scheduler is upserted whenever the Redis connection becomes ready — at start
 * and after every reconnect — so a Redis restart without persistence does not lose it. Upsert is
 * idempotent: however many processes do it, there is one scheduler.
 */
export async function createBullQueue(deps: AppDeps): Promise<JobQueue> {
  const { config, log, db } = deps;
  // Job status and retry answer an admin's request: fail fast (503) rather than wait for Redis.
  const connection = new Redis(requireRedisUrl(deps), { maxRetriesPerRequest: 2, connectTimeout: 2000 });
  connection.on('error', (err) => log.debug({ err }, 'job queue connection error'));
  const queue = new Queue(QUEUE_NAME, {
    connection,
    prefix: config.JOB_QUEUE_PREFIX,
    defaultJobOptions: jobOptions(config),
  });
  queue.on('error', (err) => log.debug({ err }, 'job queue error'));
  let closed = false;

  const registerSchedule = async () => {
    if (!config.REMINDER_SCHEDULE || closed) return;
    await queue.upsertJobScheduler(
      REMINDER_SCHEDULER_ID,
      { pattern: reminderCron(config), tz: config.TIME_ZONE },
      { name: 'send-overdue-reminders', data: {}, opts: jobOptions(config) },
    );
  };
  connection.on(
    'ready',
    () =>
      void registerSchedule().catch((err: unknown) =>
        log.warn({ err }, 'could not register the reminder schedule; will retry on reconnect'),
      ),
  );
  if (connection.status === 'ready')
    await registerSchedule().catch((err: unknown) => log.warn({ err }, 'could not register the reminder schedule'));

  let relaying: Promise<void> | null = null;
  let again = false;
  /** Hands pending rows to BullMQ until none are left (or Redis refuses; then the next tick tries again). */
  const relayOnce = async (): Promise<number> => {
    return db.transaction(async (tx) => {
      const rows = await tx
        .select()
        .from(jobOutbox)
        .where(isNull(jobOutbox.dispatchedAt))
        .orderBy(asc(jobOutbox.createdAt))
        .limit(RELAY_BATCH)
        .for('update', { skipLocked: true });
      if (rows.length === 0) return 0;
      await queue.addBulk(
        rows.map((r) => ({
          name: r.name,
          data: r.payload,
          opts: { ...jobOptions(config), jobId: r.jobId, delay: r.delayMs || undefined },
        })),
      );
      await tx
        .update(jobOutbox)
        .set({ dispatchedAt: new Date() })
        .where(
          inArray(
            jobOutbox.id,
            rows.map((r) => r.id),
          ),
        );
      return rows.length;
    });
  };
  const relay = (): Promise<void> => {
    if (closed) return Promise.resolve();
    if (relaying) {
      again = true;
      return relaying;
    }
    relaying = (async () => {
      try {
        do {
          again = false;
          while ((await relayOnce()) === RELAY_BATCH && !closed);
        } while (again && !closed);
        await db.delete(jobOutbox).where(lt(jobOutbox.dispatchedAt, new Date(Date.now() - OUTBOX_KEEP_MS)));
      } catch (err) {
        if (!closed) log.warn({ err }, 'jobs wait in the outbox: Redis or the database is unavailable');
      } finally {
        relaying = null;
      }
    })();
    return relaying;
  };
  const timer = setInterval(() => void relay(), RELAY_INTERVAL_MS);
  timer.unref();

  const record = async (target: Db, items: Array<{ name: JobName; payload: unknown; opts?: EnqueueOptions }>) => {
    const rows = items.map(({ name, payload, opts: o = {} }) => ({
      name,
      payload: parsePayload(name, payload),
      jobId: o.jobId ? jobIdFor(o.jobId) : crypto.randomUUID(),
      delayMs: o.delayMs ?? 0,
    }));
    await target.insert(jobOutbox).values(rows);
    // Outside a transaction the rows are visible now; inside one, the next tick hands them over.
    setImmediate(() => void relay());
    return rows;
  };

  return {
    driver: 'bullmq',

    async enqueue(name, payload, o = {}) {
      const row = firstRow(await record(o.tx ?? db, [{ name, payload, opts: o }]));
      return { id: row.jobId };
    },

    async enqueueMany(name, items, common = {}) {
      if (items.length === 0) return;
      await record(
        common.tx ?? db,
        items.map((i) => ({ name, payload: i.payload, opts: i.opts })),
      );
    },

    /** Hands whatever is pending to Redis now (tests, and a graceful shutdown). */
    flush: relay,

    async status({ state, limit }) {
      const raw = await queue.getJobCounts(...Object.values(BULL_TYPES).flat());
      const countOf = (s: JobState) => BULL_TYPES[s].reduce((n, t) => n + (raw[t] ?? 0), 0);
      const counts: Record<JobState, number> = {
        queued: countOf('queued'),
        active: countOf('active'),
        completed: countOf('completed'),
        failed: countOf('failed'),
      };
      const states = state ? [state] : JOB_STATES;
      const lists = await Promise.all(
        states.map(async (s) =>
          (await queue.getJobs(BULL_TYPES[s], 0, limit - 1, false)).filter(Boolean).map((j) => toInfo(j, s)),
        ),
      );
      const jobs = lists
        .flat()
        .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
        .slice(0, limit);
      return { counts, jobs };
    },

    async retry(id) {
      const job = await queue.getJob(id);
      if (!job) return 'not-found';
      if ((await job.getState()) !== 'failed') return 'not-failed';
      await job.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true });
      return 'retried';
    },

    async close() {
      closed = true;
      clearInterval(timer);
      await relaying;
      await queue.close();
      await connection.quit().catch(() => connection.disconnect());
    },
  };
}

export interface BullWorkerOptions {
  /** Replaces some handlers (dependency injection: tests add a flaky one). */
  handlers?: Partial<HandlerMap>;
}

/**
 * The consumer (worker/main.ts). `maxRetriesPerRequest: null` lets its blocking commands wait out a
 * Redis restart. A job whose worker dies keeps a lock that expires after JOB_STALLED_INTERVAL_MS;
 * the stalled check of any live worker then puts it back in the queue.
 */
export function startBullWorker(deps: AppDeps, opts: BullWorkerOptions = {}) {
  const { config, log } = deps;
  const map = withHandlers(opts.handlers);
  const connection = new Redis(requireRedisUrl(deps), { maxRetriesPerRequest: null });
  // Reconnecting is ioredis's job; an outage is logged by the worker's own error event below.
  connection.on('error', () => {});
  const worker = new Worker(
    QUEUE_NAME,
    (job) =>
      runHandler(map, deps, job.name, job.data, {
        id: job.id ?? '',
        attempt: job.attemptsMade + 1,
        // Best effort: progress lives in PostgreSQL for the screens; a Redis blip must not fail the build.
        updateProgress: (pct) => job.updateProgress(Math.max(0, Math.min(100, Math.round(pct)))).catch(() => undefined),
      }),
    {
      connection,
      prefix: config.JOB_QUEUE_PREFIX,
      concurrency: config.JOB_CONCURRENCY,
      stalledInterval: config.JOB_STALLED_INTERVAL_MS,
      lockDuration: config.JOB_STALLED_INTERVAL_MS,
      maxStalledCount: 2,
    },
  );
  worker.on('failed', (job, err) =>
    log.warn({ err, job: job?.name, id: job?.id, attempt: job?.attemptsMade }, 'job failed'),
  );
  worker.on('stalled', (id) => log.warn({ id }, 'job stalled (its worker died); queued again'));
  worker.on('error', (err) => log.error({ err }, 'worker error'));
  return {
    worker,
    /** Graceful: no new jobs, waits for the active ones. `force` does not wait: the stalled check requeues them. */
    async close(force = false) {
      await worker.close(force);
      await connection.quit().catch(() => connection.disconnect());
    },
  };
}
