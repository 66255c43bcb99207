import type { JobName, JobPayload } from './definitions';

export interface EnqueueOptions {
  /** Same id twice = one job (BullMQ dedupes by jobId; the in-process driver by its row). */
  jobId?: string;
  delayMs?: number;
}

/** What the server and services see of the job system; the two drivers implement it. */
export interface JobQueue {
  enqueue<N extends JobName>(name: N, payload: JobPayload<N>, opts?: EnqueueOptions): Promise<{ id: string }>;
  close(): Promise<void>;
}
