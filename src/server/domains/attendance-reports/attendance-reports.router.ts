import { router } from '../../trpc/init';
import { serve, staffProcedure } from '../../trpc/procedures';
import {
  ZAttendanceReport,
  ZAttendanceReportFilters,
  ZAttendanceStudentPage,
  ZAttendanceStudentsInput,
} from '@shared/schemas/attendance-reports';
import { attendanceReport, attendanceStudents } from './attendance-reports.service';

/** The attendance report (docs/reports.md#attendance); its files are REST downloads. Staff only. */
export const attendanceReportsRouter = router({
  get: staffProcedure.input(ZAttendanceReportFilters).output(ZAttendanceReport).query(serve(attendanceReport)),
  students: staffProcedure
    .input(ZAttendanceStudentsInput)
    .output(ZAttendanceStudentPage)
    .query(serve(attendanceStudents)),
});
