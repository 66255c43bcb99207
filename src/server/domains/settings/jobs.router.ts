import { router } from '../../trpc/init';
import { adminProcedure, serve, serveId } from '../../trpc/procedures';
import { sendRemindersNow } from '../reminders/reminders.service';
import { ZListJobsInput, ZRetryJobInput } from '@shared/schemas/settings';
import { listJobs, retryJob } from './job-status.service';

export const jobsRouter = router({
  list: adminProcedure.input(ZListJobsInput).query(serve(listJobs)),
  retry: adminProcedure.input(ZRetryJobInput).mutation(serveId(retryJob)),
  sendReminders: adminProcedure.mutation(serve(sendRemindersNow)),
});
