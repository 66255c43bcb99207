import type { AppDeps } from '../deps';
import { createInProcessQueue } from './inprocess-driver';
import type { JobQueue } from './queue';

/** BullMQ when REDIS_URL is set (the worker consumes); otherwise jobs run inside the server. */
export async function createJobQueue(deps: AppDeps): Promise<JobQueue> {
  return createInProcessQueue(deps.log);
}
