import { router } from '../../trpc/init';
import { adminProcedure, serve, serveId, staffProcedure } from '../../trpc/procedures';
import {
  ZCreditNoteQueued,
  ZListRefundsInput,
  ZRefund,
  ZRefundIdInput,
  ZRefundList,
  ZRefundPaymentInput,
  ZRefundWaived,
} from '@shared/schemas/refunds';
import { refundWithFeeWaived } from './refund-waived';
import { getRefund, listRefunds, refundPayment } from './refunds.service';
import { emailCreditNote } from './credit-note-delivery';

/** docs/payments.md#refunds: admins refund; staff read refunds and send credit notes. */
export const refundsRouter = router({
  create: adminProcedure.input(ZRefundPaymentInput).output(ZRefund).mutation(serve(refundPayment)),
  createWaived: adminProcedure.input(ZRefundPaymentInput).output(ZRefundWaived).mutation(serve(refundWithFeeWaived)),
  list: staffProcedure.input(ZListRefundsInput).output(ZRefundList).query(serve(listRefunds)),
  get: staffProcedure.input(ZRefundIdInput).output(ZRefund).query(serveId(getRefund)),
  emailCreditNote: staffProcedure.input(ZRefundIdInput).output(ZCreditNoteQueued).mutation(serveId(emailCreditNote)),
});
