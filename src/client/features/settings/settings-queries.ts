import { trpc } from '@/lib/trpc';

export type JobStateFilter = 'all' | 'queued' | 'active' | 'failed';

export const currencyOptions = () => trpc.settings.getCurrency.queryOptions();

/** The job view refreshes itself: jobs move between states without anyone clicking. */
export const jobStatusOptions = (filter: JobStateFilter) =>
  trpc.jobs.list.queryOptions({ state: filter === 'all' ? undefined : filter, limit: 20 }, { refetchInterval: 5000 });
