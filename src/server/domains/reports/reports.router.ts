import { router } from '../../trpc/init';
import { staffProcedure } from '../../trpc/procedures';
import { ZReportCountInput, ZReportFileIdInput } from '@shared/schemas/reports';
import { countReportRows, reportFileStatus } from './reports.service';
import { courseStatistics, treatmentStatistics, userStatistics } from './reports.stats';

export const reportsRouter = router({
  userStats: staffProcedure.query(({ ctx }) => userStatistics(ctx.svc)),
  courseStats: staffProcedure.query(({ ctx }) => courseStatistics(ctx.svc)),
  treatmentStats: staffProcedure.query(({ ctx }) => treatmentStatistics(ctx.svc)),
  count: staffProcedure.input(ZReportCountInput).query(({ ctx, input }) => countReportRows(ctx.svc, input)),
  fileStatus: staffProcedure.input(ZReportFileIdInput).query(({ ctx, input }) => reportFileStatus(ctx.svc, input.id)),
});
