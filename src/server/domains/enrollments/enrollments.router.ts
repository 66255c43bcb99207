/*
 * Who may call what. docs/product.md#roles opens enrolling, the enrolment lists and the detail to admin,
 * manager and superadmin; it shows the Mark as Paid / Unpaid toggle "for admins", so every change
 * to money, completion and deletion is admin and superadmin only.
 *   list, byStudent, get, overdue, statistics, currency, create ...... staff (manager, admin, superadmin)
 *   update, payInstallment, payAdmissionFee, complete, delete ........ admin (admin, superadmin)
 */
import { z } from 'zod';
import { router } from '../../trpc/init';
import { adminProcedure, staffProcedure } from '../../trpc/procedures';
import {
  ZCreateEnrollmentInput,
  ZDeleteEnrollmentInput,
  ZEnrollmentIdInput,
  ZListEnrollmentsInput,
  ZOverdueInput,
  ZPayAdmissionFeeInput,
  ZPayInstallmentInput,
  ZUpdateEnrollmentInput,
} from '@shared/schemas/enrollments';
import * as queries from './enrollments.queries';
import * as service from './enrollments.service';

export const enrollmentsRouter = router({
  list: staffProcedure.input(ZListEnrollmentsInput).query(({ ctx, input }) => queries.listEnrollments(ctx.svc, input)),
  byStudent: staffProcedure
    .input(z.object({ userId: z.string() }))
    .query(({ ctx, input }) => queries.listEnrollmentsWhere(ctx.svc, { userId: input.userId })),
  get: staffProcedure.input(ZEnrollmentIdInput).query(({ ctx, input }) => queries.getEnrollment(ctx.svc, input.id)),
  overdue: staffProcedure
    .input(ZOverdueInput)
    .query(({ ctx, input }) => queries.listOverdueInstallments(ctx.svc, input)),
  statistics: staffProcedure.query(({ ctx }) => queries.enrollmentStatistics(ctx.svc)),
  currency: staffProcedure.query(({ ctx }) => queries.currencySettings(ctx.svc)),
  create: staffProcedure
    .input(ZCreateEnrollmentInput)
    .mutation(({ ctx, input }) => service.createEnrollment(ctx.svc, input)),
  update: adminProcedure
    .input(ZUpdateEnrollmentInput)
    .mutation(({ ctx, input }) => service.updateEnrollment(ctx.svc, input)),
  payInstallment: adminProcedure
    .input(ZPayInstallmentInput)
    .mutation(({ ctx, input }) => service.payInstallment(ctx.svc, input)),
  payAdmissionFee: adminProcedure
    .input(ZPayAdmissionFeeInput)
    .mutation(({ ctx, input }) => service.payAdmissionFee(ctx.svc, input)),
  complete: adminProcedure
    .input(ZEnrollmentIdInput)
    .mutation(({ ctx, input }) => service.completeEnrollment(ctx.svc, input.id)),
  delete: adminProcedure
    .input(ZDeleteEnrollmentInput)
    .mutation(({ ctx, input }) => service.deleteEnrollment(ctx.svc, input)),
});
