import type { FastifyInstance, FastifyReply } from 'fastify';
import type { z, ZodType } from 'zod';
import type { AppDeps } from '../../deps';
import { route, ZIdParam } from '../../http/rest';
import {
  DEFAULT_COURSE_REPORT_COLUMNS,
  DEFAULT_TREATMENT_REPORT_COLUMNS,
  DEFAULT_USER_REPORT_COLUMNS,
  type ReportFormat,
} from '../../../shared/report-columns';
import {
  ZCourseCustomBody,
  ZCourseReportQuery,
  ZTreatmentCustomBody,
  ZTreatmentReportQuery,
  ZUserCustomBody,
  ZUserReportQuery,
  type TReportSpec,
} from '@shared/schemas/reports';
import { downloadReportFile, reportFileStatus, runReport, type ReportOutcome } from './reports.service';
import { courseStatistics, treatmentStatistics, userStatistics } from './reports.stats';
import {
  ZCourseStatistics,
  ZReportFileStatus,
  ZTreatmentStatistics,
  ZUserStatistics,
} from '@shared/schemas/reports.output';

function send(reply: FastifyReply, outcome: ReportOutcome) {
  switch (outcome.kind) {
    case 'json':
      return reply.type('application/json; charset=utf-8').send(outcome.body);
    case 'file':
      return reply
        .header('content-type', outcome.contentType)
        .header('content-disposition', `attachment; filename="${outcome.fileName}"`)
        .header('cache-control', 'no-store')
        .send(outcome.body);
    case 'job':
      return reply.status(202).send({
        reportId: outcome.reportId,
        jobId: outcome.jobId,
        status: outcome.status,
        fileName: outcome.fileName,
        statusUrl: `/api/reports/files/${outcome.reportId}`,
        downloadUrl: `/api/reports/files/${outcome.reportId}/download`,
      });
  }
}

type Query = { format?: ReportFormat };
const filtersOf = <Q extends Query>({ format: _, ...filters }: Q): Omit<Q, 'format'> => filters;

export function registerReportRest(app: FastifyInstance, deps: AppDeps) {
  const get = <Q extends ZodType<Query>>(
    url: string,
    query: Q,
    spec: (q: z.infer<Q>) => TReportSpec,
    defaultFormat: ReportFormat,
  ) =>
    route(app, deps, {
      method: 'GET',
      url,
      access: 'staff',
      query,
      handler: async ({ ctx, query: q, reply }) =>
        send(reply, await runReport(ctx, spec(q), q.format ?? defaultFormat)),
    });
  const custom = <Q extends ZodType<Query>, B extends ZodType<{ fields?: string[] }>>(
    url: string,
    query: Q,
    body: B,
    spec: (q: z.infer<Q>, fields: string[] | undefined) => TReportSpec,
  ) =>
    route(app, deps, {
      method: 'POST',
      url,
      access: 'staff',
      query,
      body,
      handler: async ({ ctx, query: q, body: b, reply }) =>
        send(reply, await runReport(ctx, spec(q, b.fields), q.format ?? 'xlsx')),
    });

  // User reports
  route(app, deps, {
    method: 'GET',
    url: '/api/reports/users/stats',
    access: 'staff',
    response: ZUserStatistics,
    handler: ({ ctx }) => userStatistics(ctx),
  });
  const users = (q: z.infer<typeof ZUserReportQuery>): TReportSpec => ({ report: 'users', filters: filtersOf(q) });
  get('/api/reports/users/excel', ZUserReportQuery, users, 'xlsx');
  get('/api/reports/users/pdf', ZUserReportQuery, users, 'pdf');
  custom('/api/reports/users/custom', ZUserReportQuery, ZUserCustomBody, (q, fields) => ({
    report: 'users',
    filters: filtersOf(q),
    fields: fields ?? DEFAULT_USER_REPORT_COLUMNS,
  }));

  // Course reports
  route(app, deps, {
    method: 'GET',
    url: '/api/course-reports/stats',
    access: 'staff',
    response: ZCourseStatistics,
    handler: ({ ctx }) => courseStatistics(ctx),
  });
  const courses = (q: z.infer<typeof ZCourseReportQuery>): TReportSpec => ({
    report: 'courses',
    filters: filtersOf(q),
  });
  get('/api/course-reports/excel', ZCourseReportQuery, courses, 'xlsx');
  get('/api/course-reports/pdf', ZCourseReportQuery, courses, 'pdf');
  get(
    '/api/course-reports/enrollments',
    ZCourseReportQuery,
    (q) => ({ report: 'enrollments', filters: filtersOf(q) }),
    'xlsx',
  );
  get(
    '/api/course-reports/revenue',
    ZCourseReportQuery,
    (q) => ({ report: 'course-revenue', filters: filtersOf(q) }),
    'xlsx',
  );
  custom('/api/course-reports/custom', ZCourseReportQuery, ZCourseCustomBody, (q, fields) => ({
    report: 'courses',
    filters: filtersOf(q),
    fields: fields ?? DEFAULT_COURSE_REPORT_COLUMNS,
  }));

  // Treatment reports
  route(app, deps, {
    method: 'GET',
    url: '/api/treatment-reports/stats',
    access: 'staff',
    response: ZTreatmentStatistics,
    handler: ({ ctx }) => treatmentStatistics(ctx),
  });
  const treatments = (q: z.infer<typeof ZTreatmentReportQuery>): TReportSpec => ({
    report: 'treatments',
    filters: filtersOf(q),
  });
  get('/api/treatment-reports/excel', ZTreatmentReportQuery, treatments, 'xlsx');
  get('/api/treatment-reports/pdf', ZTreatmentReportQuery, treatments, 'pdf');
  get(
    '/api/treatment-reports/bookings',
    ZTreatmentReportQuery,
    (q) => ({ report: 'bookings', filters: filtersOf(q) }),
    'xlsx',
  );
  get(
    '/api/treatment-reports/revenue',
    ZTreatmentReportQuery,
    (q) => ({ report: 'treatment-revenue', filters: filtersOf(q) }),
    'xlsx',
  );
  custom('/api/treatment-reports/custom', ZTreatmentReportQuery, ZTreatmentCustomBody, (q, fields) => ({
    report: 'treatments',
    filters: filtersOf(q),
    fields: fields ?? DEFAULT_TREATMENT_REPORT_COLUMNS,
  }));

  // Files built by the worker
  route(app, deps, {
    method: 'GET',
    url: '/api/reports/files/:id',
    access: 'staff',
    response: ZReportFileStatus,
    params: ZIdParam,
    handler: ({ ctx, params }) => reportFileStatus(ctx, params.id),
  });
  route(app, deps, {
    method: 'GET',
    url: '/api/reports/files/:id/download',
    access: 'staff',
    params: ZIdParam,
    handler: async ({ ctx, params, reply }) => {
      const f = await downloadReportFile(ctx, params.id);
      return reply
        .header('content-type', f.contentType)
        .header('content-disposition', `attachment; filename="${f.fileName}"`)
        .header('cache-control', 'no-store')
        .send(f.data);
    },
  });
}
