import { router } from '../../trpc/init';
import { adminProcedure, staffProcedure } from '../../trpc/procedures';
import {
  ZCashUpInput,
  ZDashboardInput,
  ZListPaymentsInput,
  ZPaymentIdInput,
  ZPaymentsOfInput,
  ZRecordPaymentInput,
  ZVoidPaymentInput,
} from '@shared/schemas/payments';
import { cashUp } from './cash-up';
import { dashboard } from './dashboard';
import * as service from './payments.service';

export const paymentsRouter = router({
  record: staffProcedure.input(ZRecordPaymentInput).mutation(({ ctx, input }) => service.recordPayment(ctx.svc, input)),
  list: staffProcedure.input(ZListPaymentsInput).query(({ ctx, input }) => service.listPayments(ctx.svc, input)),
  get: staffProcedure.input(ZPaymentIdInput).query(({ ctx, input }) => service.getPayment(ctx.svc, input.id)),
  ofEnrollment: staffProcedure
    .input(ZPaymentsOfInput)
    .query(({ ctx, input }) => service.paymentsOf(ctx.svc, { kind: 'enrollment', id: input.id })),
  ofBooking: staffProcedure
    .input(ZPaymentsOfInput)
    .query(({ ctx, input }) => service.paymentsOf(ctx.svc, { kind: 'booking', id: input.id })),
  emailReceipt: staffProcedure
    .input(ZPaymentIdInput)
    .mutation(({ ctx, input }) => service.emailReceipt(ctx.svc, input.id)),
  void: adminProcedure.input(ZVoidPaymentInput).mutation(({ ctx, input }) => service.voidPayment(ctx.svc, input)),
  cashUp: staffProcedure.input(ZCashUpInput).query(({ ctx, input }) => cashUp(ctx.svc, input)),
  dashboard: staffProcedure.input(ZDashboardInput).query(({ ctx, input }) => dashboard(ctx.svc, input)),
});
