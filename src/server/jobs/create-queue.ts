import type { AppDeps } from '../deps';
import { createBullQueue } from './bullmq-driver';
import { createInProcessQueue } from './inprocess-driver';
import type { JobQueue } from './queue';

/** BullMQ when REDIS_URL is set (the worker consumes); otherwise jobs run inside the server. */
export async function createJobQueue(deps: AppDeps): Promise<JobQueue> {
  if (deps.config.REDIS_URL) return createBullQueue(deps);
  return createInProcessQueue(deps);
}
