import { router } from '../../trpc/init';
import { serve, serveId, staffProcedure } from '../../trpc/procedures';
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
  userStats: staffProcedure.output(ZUserStatistics).query(serve(userStatistics)),
  courseStats: staffProcedure.output(ZCourseStatistics).query(serve(courseStatistics)),
  treatmentStats: staffProcedure.output(ZTreatmentStatistics).query(serve(treatmentStatistics)),
  count: staffProcedure.input(ZReportCountInput).output(ZReportRowCount).query(serve(countReportRows)),
  fileStatus: staffProcedure.input(ZReportFileIdInput).output(ZReportFileStatus).query(serveId(reportFileStatus)),
});
