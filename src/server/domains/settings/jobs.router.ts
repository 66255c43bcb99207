import { router } from '../../trpc/init';
import { adminProcedure } from '../../trpc/procedures';
import { sendRemindersNow } from '../reminders/reminders.service';
import { ZListJobsInput, ZRetryJobInput } from '@shared/schemas/settings';
import { listJobs, retryJob } from './job-status.service';

export const jobsRouter = router({
  list: adminProcedure.input(ZListJobsInput).query(({ ctx, input }) => listJobs(ctx.svc, input)),
  retry: adminProcedure.input(ZRetryJobInput).mutation(({ ctx, input }) => retryJob(ctx.svc, input.id)),
  sendReminders: adminProcedure.mutation(({ ctx }) => sendRemindersNow(ctx.svc)),
});
