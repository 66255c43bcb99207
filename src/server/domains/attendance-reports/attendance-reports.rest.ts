import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { reportFileRoutes } from '../../http/attachment';
import { route } from '../../http/rest';
import {
  ZAttendanceReport,
  ZAttendanceReportFilters,
  ZAttendanceStudentPage,
  ZAttendanceStudentsInput,
} from '@shared/schemas/attendance-reports';
import { attendanceReportFile } from './attendance-reports-files';
import { attendanceReport, attendanceStudents } from './attendance-reports.service';

/** GET /api/reports/attendance, its student pages and its files (docs/reports.md#attendance); staff only. */
export function registerAttendanceReportsRest(app: FastifyInstance, deps: AppDeps) {
  route(app, deps, {
    method: 'GET',
    url: '/api/reports/attendance',
    access: 'staff',
    query: ZAttendanceReportFilters,
    response: ZAttendanceReport,
    handler: ({ ctx, query }) => attendanceReport(ctx, query),
  });
  route(app, deps, {
    method: 'GET',
    url: '/api/reports/attendance/students',
    access: 'staff',
    query: ZAttendanceStudentsInput,
    response: ZAttendanceStudentPage,
    handler: ({ ctx, query }) => attendanceStudents(ctx, query),
  });
  reportFileRoutes(app, deps, {
    url: '/api/reports/attendance',
    query: ZAttendanceReportFilters,
    build: attendanceReportFile,
  });
}
