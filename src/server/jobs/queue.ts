import type { Db } from '../db/client';
import type { JobName, JobPayload } from './definitions';

export interface EnqueueOptions {
  /** Same id twice = one job (BullMQ dedupes by jobId; the in-process driver by its row). */
  jobId?: string;
  delayMs?: number;
  /**
   * The transaction of the change that needs the job: the job is recorded with it, so a change
   * that rolls back queues nothing and one that commits is never without its job.
   */
  tx?: Db;
}

export const JOB_STATES = ['queued', 'active', 'completed', 'failed'] as const;
export type JobState = (typeof JOB_STATES)[number];

/** One job as the admin's status view shows it; the same shape from both drivers. */
export interface JobInfo {
  id: string;
  name: string;
  state: JobState;
  attempts: number;
  maxAttempts: number;
  progress: number;
  failedReason: string | null;
  createdAt: string;
  finishedAt: string | null;
}

export interface JobStatus {
  counts: Record<JobState, number>;
  /** Newest first, at most `limit`. */
  jobs: JobInfo[];
}

/** What the server and services see of the job system; the two drivers implement it. */
export interface JobQueue {
  readonly driver: 'bullmq' | 'inprocess';
  enqueue<N extends JobName>(name: N, payload: JobPayload<N>, opts?: EnqueueOptions): Promise<{ id: string }>;
  /** Many jobs of one name in one round trip (the reminder run queues thousands). */
  enqueueMany<N extends JobName>(
    name: N,
    items: Array<{ payload: JobPayload<N>; opts?: Omit<EnqueueOptions, 'tx'> }>,
    common?: { tx?: Db },
  ): Promise<void>;
  status(opts: { state?: JobState; limit: number }): Promise<JobStatus>;
  /** Puts a failed job back in the queue with fresh attempts: 'retried', or why not. */
  retry(id: string): Promise<'retried' | 'not-found' | 'not-failed'>;
  /** Hands jobs recorded but not yet passed on to their runner (a no-op where there is none). */
  flush?(): Promise<void>;
  close(): Promise<void>;
}
