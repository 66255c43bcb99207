import { PassThrough } from 'node:stream';
import { z } from 'zod';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppDeps } from '../../deps';
import type { ServiceContext } from '../context';
import { sendAttachment } from '../../http/attachment';
import { route, ZIdParam } from '../../http/rest';
import { todayIn } from '../enrollments/dates';
import { CONTENT_TYPES } from '../reports/reports.service';
import type { ReportSource } from '../reports/report-source';
import { buildPdf, PDF_MAX_ROWS, writeXlsx } from '../reports/report-writers';
import { AppError } from '../../errors';
import {
  ZCashUpInput,
  ZDashboardInput,
  ZListPaymentsQuery,
  ZRecordPaymentInput,
  ZVoidPaymentInput,
} from '@shared/schemas/payments';
import { cashUp, cashUpSource, paymentListSource } from './cash-up';
import { dashboard } from './dashboard';
import * as service from './payments.service';
import {
  ZCashUp,
  ZDashboard,
  ZPayment,
  ZPaymentData,
  ZPaymentList,
  ZReceiptQueued,
} from '@shared/schemas/payments.output';
import { paperOrganisation } from '../settings/organisation.service';
import { unmarkPreview } from './unmark-preview';
import { ZUnmarkPreview } from '@shared/schemas/unmark';

/** `{ id, installmentId }` path params; a malformed id is simply not found, as with ZIdParam. */
const ZInstallmentParams = z.object({ id: z.string(), installmentId: z.string() });

/** Excel streams; a PDF is refused past the reports' row cap (docs/reports.md). */
async function sendSource(ctx: ServiceContext, reply: FastifyReply, source: ReportSource, format: 'xlsx' | 'pdf') {
  const tz = ctx.deps.config.TIME_ZONE;
  const fileName = `${source.fileBase}_${todayIn(tz)}.${format}`;
  const meta = {
    generatedAt: new Date(),
    timeZone: tz,
    organisation: await paperOrganisation(ctx.db, ctx.deps.config),
  };
  if (format === 'pdf') {
    const rows = await source.count();
    if (rows > PDF_MAX_ROWS)
      throw new AppError('BAD_REQUEST', `A PDF can hold at most ${PDF_MAX_ROWS} rows; narrow the dates or use Excel.`);
    return sendAttachment(reply, { contentType: CONTENT_TYPES.pdf, fileName, body: await buildPdf(source, meta) });
  }
  const out = new PassThrough();
  writeXlsx(source, out, meta).catch((err: unknown) => {
    ctx.deps.log.error({ err }, 'payments export stream failed');
    out.destroy(err instanceof Error ? err : new Error('export failed'));
  });
  return sendAttachment(reply, { contentType: CONTENT_TYPES.xlsx, fileName, body: out });
}

/** The ledger's REST paths (docs/payments.md#rest-paths). */
export function registerPaymentsRest(app: FastifyInstance, deps: AppDeps) {
  route(app, deps, {
    method: 'POST',
    url: '/api/payments',
    access: 'staff',
    body: ZRecordPaymentInput,
    response: ZPayment,
    status: 201,
    handler: ({ ctx, body }) => service.recordPayment(ctx, body),
  });
  route(app, deps, {
    method: 'GET',
    url: '/api/payments',
    access: 'staff',
    response: ZPaymentData,
    query: ZListPaymentsQuery,
    handler: async ({ ctx, query: { limit, ...q } }) => {
      const page = await service.listPayments(ctx, { ...q, pageSize: limit, sortBy: 'receivedAt', sortDir: 'desc' });
      return { data: page.items, total: page.total, page: page.page, totals: page.totals };
    },
  });
  route(app, deps, {
    method: 'GET',
    url: '/api/payments/excel',
    access: 'staff',
    query: ZListPaymentsQuery,
    handler: async ({ ctx, query: { limit: _l, page: _p, ...q }, reply }) =>
      sendSource(ctx, reply, await paymentListSource(ctx, q), 'xlsx'),
  });
  route(app, deps, {
    method: 'GET',
    url: '/api/payments/cash-up',
    access: 'staff',
    response: ZCashUp,
    query: ZCashUpInput,
    handler: ({ ctx, query }) => cashUp(ctx, query),
  });
  for (const format of ['excel', 'pdf'] as const) {
    route(app, deps, {
      method: 'GET',
      url: `/api/payments/cash-up/${format}`,
      access: 'staff',
      query: ZCashUpInput,
      handler: async ({ ctx, query, reply }) =>
        sendSource(ctx, reply, await cashUpSource(ctx, query), format === 'excel' ? 'xlsx' : 'pdf'),
    });
  }
  route(app, deps, {
    method: 'GET',
    url: '/api/payments/dashboard',
    access: 'staff',
    response: ZDashboard,
    query: ZDashboardInput,
    handler: ({ ctx, query }) => dashboard(ctx, query),
  });
  route(app, deps, {
    method: 'GET',
    url: '/api/payments/:id',
    access: 'staff',
    response: ZPayment,
    params: ZIdParam,
    handler: ({ ctx, params }) => service.getPayment(ctx, params.id),
  });
  route(app, deps, {
    method: 'GET',
    url: '/api/payments/:id/receipt',
    access: 'staff',
    params: ZIdParam,
    handler: async ({ ctx, params, reply }) => {
      const { fileName, pdf } = await service.receiptPdf(ctx, params.id);
      return sendAttachment(reply, { contentType: CONTENT_TYPES.pdf, fileName, body: pdf });
    },
  });
  route(app, deps, {
    method: 'POST',
    url: '/api/payments/:id/email',
    access: 'staff',
    params: ZIdParam,
    response: ZReceiptQueued,
    status: 202,
    handler: ({ ctx, params }) => service.emailReceipt(ctx, params.id),
  });
  route(app, deps, {
    method: 'POST',
    url: '/api/payments/:id/void',
    access: 'admin',
    response: ZPayment,
    params: ZIdParam,
    body: ZVoidPaymentInput.omit({ id: true }),
    handler: ({ ctx, params, body }) => service.voidPayment(ctx, { id: params.id, reason: body.reason }),
  });
  route(app, deps, {
    method: 'GET',
    url: '/api/enrollments/:id/payments',
    access: 'staff',
    response: ZPaymentList,
    params: ZIdParam,
    handler: ({ ctx, params }) => service.paymentsOf(ctx, { kind: 'enrollment', id: params.id }),
  });
  route(app, deps, {
    method: 'GET',
    url: '/api/bookings/booking/:id/payments',
    access: 'staff',
    response: ZPaymentList,
    params: ZIdParam,
    handler: ({ ctx, params }) => service.paymentsOf(ctx, { kind: 'booking', id: params.id }),
  });
  // What Mark as Unpaid would void (docs/payments.md#the-paidunpaid-switch), beside the toggles it
  // previews: the same service as tRPC `payments.unmarkPreview`, admins only as the toggles are.
  route(app, deps, {
    method: 'GET',
    url: '/api/enrollments/:id/admission-fee/unmark-preview',
    access: 'admin',
    response: ZUnmarkPreview,
    params: ZIdParam,
    handler: ({ ctx, params }) => unmarkPreview(ctx, { enrollmentId: params.id }),
  });
  route(app, deps, {
    method: 'GET',
    url: '/api/enrollments/:id/installments/:installmentId/unmark-preview',
    access: 'admin',
    response: ZUnmarkPreview,
    params: ZInstallmentParams,
    handler: ({ ctx, params }) => unmarkPreview(ctx, { enrollmentId: params.id, installmentId: params.installmentId }),
  });
  route(app, deps, {
    method: 'GET',
    url: '/api/bookings/:id/installments/:installmentId/unmark-preview',
    access: 'admin',
    response: ZUnmarkPreview,
    params: ZInstallmentParams,
    handler: ({ ctx, params }) => unmarkPreview(ctx, { bookingId: params.id, installmentId: params.installmentId }),
  });
}
