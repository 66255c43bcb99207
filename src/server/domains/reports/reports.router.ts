import { router } from '../../trpc/init';
import { staffProcedure } from '../../trpc/procedures';
import { ZReportFileIdInput } from './reports.schemas';
import { reportFileStatus } from './reports.service';
import { courseStatistics, treatmentStatistics, userStatistics } from './reports.stats';

export const reportsRouter = router({
  userStats: staffProcedure.query(({ ctx }) => userStatistics(ctx.svc)),
  courseStats: staffProcedure.query(({ ctx }) => courseStatistics(ctx.svc)),
  treatmentStats: staffProcedure.query(({ ctx }) => treatmentStatistics(ctx.svc)),
  fileStatus: staffProcedure.input(ZReportFileIdInput).query(({ ctx, input }) => reportFileStatus(ctx.svc, input.id)),
});
