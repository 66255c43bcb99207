import { router } from '../../trpc/init';
import { staffProcedure } from '../../trpc/procedures';
import { ZReportCountInput, ZReportFileIdInput } from '@shared/schemas/reports';
import {
  ZCourseStatistics,
  ZReportFileStatus,
  ZReportRowCount,
  ZTreatmentStatistics,
  ZUserStatistics,
} from '@shared/schemas/reports.output';
import { countReportRows, reportFileStatus } from './reports.service';
import { courseStatistics, treatmentStatistics, userStatistics } from './reports.stats';

export const reportsRouter = router({
  userStats: staffProcedure.output(ZUserStatistics).query(({ ctx }) => userStatistics(ctx.svc)),
  courseStats: staffProcedure.output(ZCourseStatistics).query(({ ctx }) => courseStatistics(ctx.svc)),
  treatmentStats: staffProcedure.output(ZTreatmentStatistics).query(({ ctx }) => treatmentStatistics(ctx.svc)),
  count: staffProcedure
    .input(ZReportCountInput)
    .output(ZReportRowCount)
    .query(({ ctx, input }) => countReportRows(ctx.svc, input)),
  fileStatus: staffProcedure
    .input(ZReportFileIdInput)
    .output(ZReportFileStatus)
    .query(({ ctx, input }) => reportFileStatus(ctx.svc, input.id)),
});
