import type { FastifyInstance, FastifyReply } from 'fastify';
import type { z, ZodType } from 'zod';
import type { AppDeps } from '../../deps';
import type { ServiceContext } from '../context';
import { sendAttachment } from '../../http/attachment';
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
      return sendAttachment(reply, outcome);
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
/** The reports that can also be custom ones (a `fields` list of columns). */
type ListSpec = Extract<TReportSpec, { report: 'users' | 'courses' | 'treatments' }>;
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

  /**
   * One family of report paths under `prefix`: `stats`, the list as `excel` and `pdf`, the further
   * Excel reports named in `more`, and `custom` (the list with the columns the body names).
   */
  const family = <Q extends ZodType<Query>, B extends ZodType<{ fields?: string[] }>, S>(f: {
    prefix: string;
    stats: { response: ZodType<unknown, S>; read: (ctx: ServiceContext) => Promise<S> };
    query: Q;
    body: B;
    list: (q: z.infer<Q>) => ListSpec;
    defaultFields: readonly string[];
    more: Record<string, (q: z.infer<Q>) => TReportSpec>;
  }) => {
    route(app, deps, {
      method: 'GET',
      url: `${f.prefix}/stats`,
      access: 'staff',
      response: f.stats.response,
      handler: ({ ctx }) => f.stats.read(ctx),
    });
    get(`${f.prefix}/excel`, f.query, f.list, 'xlsx');
    get(`${f.prefix}/pdf`, f.query, f.list, 'pdf');
    for (const [name, spec] of Object.entries(f.more)) get(`${f.prefix}/${name}`, f.query, spec, 'xlsx');
    custom(`${f.prefix}/custom`, f.query, f.body, (q, fields) => ({
      ...f.list(q),
      fields: fields ?? [...f.defaultFields],
    }));
  };

  family({
    prefix: '/api/reports/users',
    stats: { response: ZUserStatistics, read: userStatistics },
    query: ZUserReportQuery,
    body: ZUserCustomBody,
    list: (q) => ({ report: 'users', filters: filtersOf(q) }),
    defaultFields: DEFAULT_USER_REPORT_COLUMNS,
    more: {},
  });
  family({
    prefix: '/api/course-reports',
    stats: { response: ZCourseStatistics, read: courseStatistics },
    query: ZCourseReportQuery,
    body: ZCourseCustomBody,
    list: (q) => ({ report: 'courses', filters: filtersOf(q) }),
    defaultFields: DEFAULT_COURSE_REPORT_COLUMNS,
    more: {
      enrollments: (q) => ({ report: 'enrollments', filters: filtersOf(q) }),
      revenue: (q) => ({ report: 'course-revenue', filters: filtersOf(q) }),
    },
  });
  family({
    prefix: '/api/treatment-reports',
    stats: { response: ZTreatmentStatistics, read: treatmentStatistics },
    query: ZTreatmentReportQuery,
    body: ZTreatmentCustomBody,
    list: (q) => ({ report: 'treatments', filters: filtersOf(q) }),
    defaultFields: DEFAULT_TREATMENT_REPORT_COLUMNS,
    more: {
      bookings: (q) => ({ report: 'bookings', filters: filtersOf(q) }),
      revenue: (q) => ({ report: 'treatment-revenue', filters: filtersOf(q) }),
    },
  });

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
      return sendAttachment(reply, await downloadReportFile(ctx, params.id));
    },
  });
}
