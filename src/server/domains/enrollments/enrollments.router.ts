/*
 * Who may call what. docs/product.md#roles opens enrolling, the enrolment lists and the detail to admin,
 * manager and superadmin; it shows the Mark as Paid / Unpaid toggle "for admins", so every change
 * to money, completion and deletion is admin and superadmin only.
 *   list, byStudent, get, overdue, statistics, currency, create ...... staff (manager, admin, superadmin)
 *   update, payInstallment, payAdmissionFee, complete, delete ........ admin (admin, superadmin)
 */
import { router } from '../../trpc/init';
import { adminProcedure, serve, serveId, staffProcedure } from '../../trpc/procedures';
import {
  ZCreateEnrollmentInput,
  ZDeleteEnrollmentInput,
  ZEnrollmentIdInput,
  ZListEnrollmentsInput,
  ZOverdueInput,
  ZPayAdmissionFeeInput,
  ZPayInstallmentInput,
  ZStudentEnrollmentsInput,
  ZUpdateEnrollmentInput,
} from '@shared/schemas/enrollments';
import {
  ZEnrollment,
  ZEnrollmentList,
  ZEnrollmentPage,
  ZEnrollmentStatistics,
  ZOverdueInstallmentList,
} from '@shared/schemas/enrollments.output';
import { ZMessage } from '@shared/schemas/output';
import { ZCurrencySettings } from '@shared/schemas/settings.output';
import * as queries from './enrollments.queries';
import * as service from './enrollments.service';

export const enrollmentsRouter = router({
  list: staffProcedure.input(ZListEnrollmentsInput).output(ZEnrollmentPage).query(serve(queries.listEnrollments)),
  byStudent: staffProcedure
    .input(ZStudentEnrollmentsInput)
    .output(ZEnrollmentList)
    .query(({ ctx, input }) => queries.listEnrollmentsWhere(ctx.svc, { userId: input.userId })),
  get: staffProcedure.input(ZEnrollmentIdInput).output(ZEnrollment).query(serveId(queries.getEnrollment)),
  overdue: staffProcedure
    .input(ZOverdueInput)
    .output(ZOverdueInstallmentList)
    .query(serve(queries.listOverdueInstallments)),
  statistics: staffProcedure.output(ZEnrollmentStatistics).query(serve(queries.enrollmentStatistics)),
  currency: staffProcedure.output(ZCurrencySettings).query(serve(queries.currencySettings)),
  create: staffProcedure.input(ZCreateEnrollmentInput).output(ZEnrollment).mutation(serve(service.createEnrollment)),
  update: adminProcedure.input(ZUpdateEnrollmentInput).output(ZEnrollment).mutation(serve(service.updateEnrollment)),
  payInstallment: adminProcedure
    .input(ZPayInstallmentInput)
    .output(ZEnrollment)
    .mutation(serve(service.payInstallment)),
  payAdmissionFee: adminProcedure
    .input(ZPayAdmissionFeeInput)
    .output(ZEnrollment)
    .mutation(serve(service.payAdmissionFee)),
  complete: adminProcedure.input(ZEnrollmentIdInput).output(ZEnrollment).mutation(serveId(service.completeEnrollment)),
  delete: adminProcedure.input(ZDeleteEnrollmentInput).output(ZMessage).mutation(serve(service.deleteEnrollment)),
});
