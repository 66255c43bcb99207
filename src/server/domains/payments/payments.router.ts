import { router } from '../../trpc/init';
import { adminProcedure, serve, serveId, staffProcedure } from '../../trpc/procedures';
import {
  ZCashUpInput,
  ZDashboardInput,
  ZListPaymentsInput,
  ZPaymentIdInput,
  ZPaymentsOfInput,
  ZRecordPaymentInput,
  ZVoidPaymentInput,
} from '@shared/schemas/payments';
import {
  ZCashUp,
  ZDashboard,
  ZPayment,
  ZPaymentList,
  ZPaymentPage,
  ZReceiptQueued,
} from '@shared/schemas/payments.output';
import { cashUp } from './cash-up';
import { dashboard } from './dashboard';
import * as service from './payments.service';
import { unmarkPreview } from './unmark-preview';
import { ZUnmarkPreview, ZUnmarkPreviewInput } from '@shared/schemas/unmark';

export const paymentsRouter = router({
  record: staffProcedure.input(ZRecordPaymentInput).output(ZPayment).mutation(serve(service.recordPayment)),
  list: staffProcedure.input(ZListPaymentsInput).output(ZPaymentPage).query(serve(service.listPayments)),
  get: staffProcedure.input(ZPaymentIdInput).output(ZPayment).query(serveId(service.getPayment)),
  ofEnrollment: staffProcedure
    .input(ZPaymentsOfInput)
    .output(ZPaymentList)
    .query(({ ctx, input }) => service.paymentsOf(ctx.svc, { kind: 'enrollment', id: input.id })),
  ofBooking: staffProcedure
    .input(ZPaymentsOfInput)
    .output(ZPaymentList)
    .query(({ ctx, input }) => service.paymentsOf(ctx.svc, { kind: 'booking', id: input.id })),
  emailReceipt: staffProcedure.input(ZPaymentIdInput).output(ZReceiptQueued).mutation(serveId(service.emailReceipt)),
  void: adminProcedure.input(ZVoidPaymentInput).output(ZPayment).mutation(serve(service.voidPayment)),
  cashUp: staffProcedure.input(ZCashUpInput).output(ZCashUp).query(serve(cashUp)),
  dashboard: staffProcedure.input(ZDashboardInput).output(ZDashboard).query(serve(dashboard)),
  // The toggles are admins'; so is the question their confirmation asks.
  unmarkPreview: adminProcedure.input(ZUnmarkPreviewInput).output(ZUnmarkPreview).query(serve(unmarkPreview)),
});
