import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { sendAttachment } from '../../http/attachment';
import { route, ZIdParam } from '../../http/rest';
import { CONTENT_TYPES } from '../reports/reports.service';
import {
  ZCreditNoteQueued,
  ZListRefundsInput,
  ZRefund,
  ZRefundBody,
  ZRefundList,
  ZRefundWaived,
} from '@shared/schemas/refunds';
import { refundWithFeeWaived } from './refund-waived';
import { getRefund, listRefunds, refundPayment } from './refunds.service';
import { creditNotePdf, emailCreditNote } from './credit-note-delivery';

/** docs/payments.md#refunds */
export function registerRefundsRest(app: FastifyInstance, deps: AppDeps) {
  route(app, deps, {
    method: 'POST',
    url: '/api/payments/:id/refunds',
    access: 'admin',
    params: ZIdParam,
    body: ZRefundBody,
    response: ZRefund,
    status: 201,
    handler: ({ ctx, params, body }) => refundPayment(ctx, { paymentId: params.id, ...body }),
  });
  route(app, deps, {
    method: 'POST',
    url: '/api/payments/:id/refunds/fee-waived',
    access: 'admin',
    params: ZIdParam,
    body: ZRefundBody,
    response: ZRefundWaived,
    status: 201,
    handler: ({ ctx, params, body }) => refundWithFeeWaived(ctx, { paymentId: params.id, ...body }),
  });
  route(app, deps, {
    method: 'GET',
    url: '/api/refunds',
    access: 'staff',
    query: ZListRefundsInput,
    response: ZRefundList,
    handler: ({ ctx, query }) => listRefunds(ctx, query),
  });
  route(app, deps, {
    method: 'GET',
    url: '/api/refunds/:id',
    access: 'staff',
    params: ZIdParam,
    response: ZRefund,
    handler: ({ ctx, params }) => getRefund(ctx, params.id),
  });
  route(app, deps, {
    method: 'GET',
    url: '/api/refunds/:id/credit-note',
    access: 'staff',
    params: ZIdParam,
    handler: async ({ ctx, params, reply }) => {
      const { fileName, pdf } = await creditNotePdf(ctx, params.id);
      return sendAttachment(reply, { contentType: CONTENT_TYPES.pdf, fileName, body: pdf });
    },
  });
  route(app, deps, {
    method: 'POST',
    url: '/api/refunds/:id/email',
    access: 'staff',
    params: ZIdParam,
    response: ZCreditNoteQueued,
    status: 202,
    handler: ({ ctx, params }) => emailCreditNote(ctx, params.id),
  });
}
