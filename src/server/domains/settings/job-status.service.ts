import type { ServiceContext } from '../context';
import { AppError } from '../../errors';
import type { JobStatus } from '../../jobs/queue';
import type { TListJobsInput } from '@shared/schemas/settings';

/** The Settings screen's job view: counts per state and the newest jobs, from either driver. */
export async function listJobs(
  ctx: ServiceContext,
  input: TListJobsInput,
): Promise<JobStatus & { driver: 'bullmq' | 'inprocess' }> {
  const status = await ctx.deps.jobs.status({ state: input.state, limit: input.limit });
  return { driver: ctx.deps.jobs.driver, ...status };
}

export async function retryJob(ctx: ServiceContext, id: string): Promise<{ message: string }> {
  const outcome = await ctx.deps.jobs.retry(id);
  if (outcome === 'not-found') throw new AppError('NOT_FOUND', 'Job not found.');
  if (outcome === 'not-failed') throw new AppError('CONFLICT', 'Only failed jobs can be retried.');
  return { message: 'Job queued again.' };
}
