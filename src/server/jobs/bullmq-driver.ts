import { Queue, Worker, type Job, type JobsOptions, type JobType } from 'bullmq';
import { Redis } from 'ioredis';
import type { AppDeps } from '../deps';
import { jobIdFor, parsePayload } from './definitions';
import { runHandler, withHandlers, type HandlerMap } from './handlers';
import type { JobInfo, JobQueue, JobState } from './queue';
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

/**
 * The producer side (every server, and the worker for the jobs its handlers queue): adds jobs,
 * reads their state for the admin, and upserts the daily reminder scheduler. Upsert is idempotent,
 * so however many servers and workers start there is one scheduler.
 */
export async function createBullQueue(deps: AppDeps): Promise<JobQueue> {
  const { config } = deps;
  // Enqueueing answers a user's request: fail it rather than wait forever when Redis is down.
  const connection = new Redis(requireRedisUrl(deps), { maxRetriesPerRequest: 3 });
  const queue = new Queue(QUEUE_NAME, { connection, prefix: config.JOB_QUEUE_PREFIX, defaultJobOptions: jobOptions(config) });
  if (config.REMINDER_SCHEDULE) {
    await queue.upsertJobScheduler(
      REMINDER_SCHEDULER_ID,
      { pattern: reminderCron(config), tz: config.TIME_ZONE },
      { name: 'send-overdue-reminders', data: {}, opts: jobOptions(config) },
    );
  }

  return {
    driver: 'bullmq',

    async enqueue(name, payload, o = {}) {
      const job = await queue.add(name, parsePayload(name, payload), { jobId: o.jobId ? jobIdFor(o.jobId) : undefined, delay: o.delayMs });
      return { id: job.id ?? '' };
    },

    async enqueueMany(name, items) {
      if (items.length === 0) return;
      await queue.addBulk(items.map(({ payload, opts: o = {} }) => ({ name, data: parsePayload(name, payload), opts: { ...jobOptions(config), jobId: o.jobId ? jobIdFor(o.jobId) : undefined, delay: o.delayMs } })));
    },

    async status({ state, limit }) {
      const raw = await queue.getJobCounts(...Object.values(BULL_TYPES).flat());
      const counts = Object.fromEntries(
        (Object.keys(BULL_TYPES) as JobState[]).map((s) => [s, BULL_TYPES[s].reduce((n, t) => n + (raw[t] ?? 0), 0)]),
      ) as Record<JobState, number>;
      const states = state ? [state] : (Object.keys(BULL_TYPES) as JobState[]);
      const lists = await Promise.all(
        states.map(async (s) => (await queue.getJobs(BULL_TYPES[s], 0, limit - 1, false)).filter(Boolean).map((j) => toInfo(j, s))),
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
  const worker = new Worker(
    QUEUE_NAME,
    (job) =>
      runHandler(map, deps, job.name, job.data, {
        id: job.id ?? '',
        attempt: job.attemptsMade + 1,
        updateProgress: (pct) => job.updateProgress(Math.max(0, Math.min(100, Math.round(pct)))),
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
  worker.on('failed', (job, err) => log.warn({ err, job: job?.name, id: job?.id, attempt: job?.attemptsMade }, 'job failed'));
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
