import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { reportFileRoutes } from '../../http/attachment';
import { route } from '../../http/rest';
import { ZAppointmentReport, ZAppointmentReportFilters } from '@shared/schemas/appointment-reports';
import { appointmentReportFile } from './appointment-reports-files';
import { appointmentReport } from './appointment-reports.service';

/** GET /api/reports/appointments and its files (docs/reports.md#appointments); staff only. */
export function registerAppointmentReportsRest(app: FastifyInstance, deps: AppDeps) {
  route(app, deps, {
    method: 'GET',
    url: '/api/reports/appointments',
    access: 'staff',
    query: ZAppointmentReportFilters,
    response: ZAppointmentReport,
    handler: ({ ctx, query }) => appointmentReport(ctx, query),
  });
  reportFileRoutes(app, deps, {
    url: '/api/reports/appointments',
    query: ZAppointmentReportFilters,
    build: appointmentReportFile,
  });
}
