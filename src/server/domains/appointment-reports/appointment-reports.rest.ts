import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
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
  for (const [path, format] of [
    ['excel', 'xlsx'],
    ['pdf', 'pdf'],
  ] as const) {
    route(app, deps, {
      method: 'GET',
      url: `/api/reports/appointments/${path}`,
      access: 'staff',
      query: ZAppointmentReportFilters,
      handler: async ({ ctx, query, reply }) => {
        const f = await appointmentReportFile(ctx, query, format);
        return reply
          .header('content-type', f.contentType)
          .header('content-disposition', `attachment; filename="${f.fileName}"`)
          .header('cache-control', 'no-store')
          .send(f.body);
      },
    });
  }
}
