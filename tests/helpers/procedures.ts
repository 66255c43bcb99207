/**
 * Every tRPC procedure, with its call (query or mutation), the access it declares
 * (src/server/trpc/procedures.ts) and the zod schema it checks its input with. tRPC documents no way
 * to list a router's procedures at run time, so the role walk (tests/integration/access.test.ts)
 * and the fuzz test (tests/integration/fuzz.test.ts) read this list instead of tRPC's internals.
 *
 * The compiler keeps it whole: the paths come from tRPC's documented `inferRouterInputs`, so a
 * procedure added to, renamed in or removed from the router without its line here fails
 * `npm run typecheck`, as does a wrong call or a schema whose input is not the procedure's. The
 * access is checked by the walks: each procedure answers as the access written here demands
 * (docs/security.md#the-role-walk).
 */
import type { TRPCClient } from '@trpc/client';
import type { inferRouterInputs } from '@trpc/server';
import type { z } from 'zod';
import type { Access } from '../../src/server/http/access';
import type { AppRouter } from '../../src/server/trpc/root';
import {
  ZAdjustmentIdInput,
  ZAdjustmentSettingsInput,
  ZAdjustmentsOfInput,
  ZCreateAdjustmentInput,
  ZDecideAdjustmentInput,
  ZListAdjustmentsInput,
  ZMoneyChangesInput,
  ZRevokeAdjustmentInput,
  ZSchemeInput,
  ZUpdateSchemeInput,
} from '../../src/shared/schemas/adjustments';
import { ZAppointmentFiguresInput } from '../../src/shared/schemas/appointment-figures';
import { ZAppointmentReportFilters } from '../../src/shared/schemas/appointment-reports';
import {
  ZAppointmentIdInput,
  ZAppointmentSeriesInput,
  ZAppointmentStatusInput,
  ZAvailabilityInput,
  ZCreateAppointmentInput,
  ZListAppointmentsInput,
  ZRescheduleAppointmentInput,
  ZTodayInput,
} from '../../src/shared/schemas/appointments';
import { ZAttendanceReportFilters, ZAttendanceStudentsInput } from '../../src/shared/schemas/attendance-reports';
import { ZAuditForEntityInput, ZAuditListInput } from '../../src/shared/schemas/audit';
import { ZLoginInput } from '../../src/shared/schemas/auth';
import {
  ZBookTreatmentInput,
  ZBookingIdInput,
  ZListBookingsInput,
  ZSaveNoteInput,
  ZSetInstallmentPaidInput,
  ZSetSessionsInput,
} from '../../src/shared/schemas/bookings';
import {
  ZBranchIdInput,
  ZCreateBranchInput,
  ZListBranchesInput,
  ZUpdateBranchInput,
} from '../../src/shared/schemas/branches';
import {
  ZBatchIdInput,
  ZBatchSessionsInput,
  ZBranchSessionsInput,
  ZCancelSessionInput,
  ZCreateBatchInput,
  ZDaySessionsInput,
  // The classes schemas have their own copy, which the class routers use.
  ZEnrollmentIdInput as ZClassEnrollmentIdInput,
  ZFallingBehindInput,
  ZJoinBatchInput,
  ZListBatchesInput,
  ZMoveSessionInput,
  ZRegisterInput,
  ZSessionIdInput,
  ZTakeAttendanceInput,
  ZUpdateBatchInput,
} from '../../src/shared/schemas/classes';
import {
  ZCourseIdInput,
  ZCreateCourseInput,
  ZFilterCoursesInput,
  ZListCoursesInput,
  ZUpdateCourseInput,
} from '../../src/shared/schemas/courses';
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
} from '../../src/shared/schemas/enrollments';
import {
  ZContactPreferencesInput,
  ZListMessagesInput,
  ZMessageIdInput,
  ZMessageSettings,
  ZPreviewInput,
  ZSaveTemplatesInput,
} from '../../src/shared/schemas/messages';
import { ZOrganisationInput } from '../../src/shared/schemas/organisation';
import {
  ZCashUpInput,
  ZDashboardInput,
  ZListPaymentsInput,
  ZPaymentIdInput,
  ZPaymentsOfInput,
  ZRecordPaymentInput,
  ZVoidPaymentInput,
} from '../../src/shared/schemas/payments';
import {
  ZInvitationAcceptInput,
  ZPortalAppointmentsInput,
  ZPortalAvailabilityInput,
  ZPortalBookBody,
  ZPortalCancelInput,
  ZPortalCodeInput,
  ZPortalCodeVerifyInput,
  ZPortalIdInput,
  ZPortalMoveInput,
  ZPortalProfileInput,
  ZPortalSettingsInput,
} from '../../src/shared/schemas/portal';
import {
  ZAddClosureInput,
  ZAddTimeOffInput,
  ZClosureIdInput,
  ZCreatePractitionerInput,
  ZCreateRoomInput,
  ZListClosuresInput,
  ZListPractitionersInput,
  ZListRoomsInput,
  ZListTimeOffInput,
  ZPractitionerIdInput,
  ZRoomIdInput,
  ZSetWorkingPlanInput,
  ZTimeOffIdInput,
  ZUpdatePractitionerInput,
  ZUpdateRoomInput,
  ZWorkingPlanInput,
} from '../../src/shared/schemas/practitioners';
import { ZReceivablesInput } from '../../src/shared/schemas/receivables';
import { ZListRefundsInput, ZRefundIdInput, ZRefundPaymentInput } from '../../src/shared/schemas/refunds';
import { ZReportCountInput, ZReportFileIdInput } from '../../src/shared/schemas/reports';
import { ZGlobalSearchInput } from '../../src/shared/schemas/search';
import {
  ZListJobsInput,
  ZRetryJobInput,
  ZUpdateAccessInput,
  ZUpdateCurrencyInput,
} from '../../src/shared/schemas/settings';
import { ZStatementInput } from '../../src/shared/schemas/statements';
import {
  ZCloseTillInput,
  ZListTillsInput,
  ZOpenTillInput,
  ZTillIdInput,
  ZTillSettingsInput,
} from '../../src/shared/schemas/tills';
import {
  ZCreateTreatmentInput,
  ZListTreatmentsInput,
  ZTreatmentIdInput,
  ZUpdateTreatmentInput,
} from '../../src/shared/schemas/treatments';
import { ZUnmarkPreviewInput } from '../../src/shared/schemas/unmark';
import {
  ZCreateUserInput,
  ZForgotPasswordInput,
  ZListUsersInput,
  ZResetPasswordInput,
  ZSearchUsersInput,
  ZUpdateProfileInput,
  ZUpdateUserInput,
  ZUserIdInput,
  ZValidateOtpInput,
} from '../../src/shared/schemas/users';

/** The call the typed client makes on a node of the router; never for a nested router. */
type CallOf<C> = C extends { query: (...args: never[]) => unknown }
  ? 'query'
  : C extends { mutate: (...args: never[]) => unknown }
    ? 'mutation'
    : C extends { subscribe: (...args: never[]) => unknown }
      ? 'subscription'
      : never;

/**
 * Every procedure under a node of `inferRouterInputs`, by dot-path. A procedure's input may itself
 * be an object, so the typed client's node at the same path tells a procedure from a nested router.
 */
type ProceduresOf<I, C, Prefix extends string> = {
  [K in keyof I & keyof C & string]: [CallOf<C[K]>] extends [never]
    ? ProceduresOf<I[K], C[K], `${Prefix}${K}.`>
    : { path: `${Prefix}${K}`; type: CallOf<C[K]>; input: I[K] };
}[keyof I & keyof C & string];

type Procedure = ProceduresOf<inferRouterInputs<AppRouter>, TRPCClient<AppRouter>, ''>;
export type ProcedurePath = Procedure['path'];
type At<P extends ProcedurePath> = Extract<Procedure, { path: P }>;

/** tRPC's input type for a schema: a schema that accepts undefined may also be called with nothing. */
type AsProcedureInput<T> = undefined extends T ? void | T : T;

/** `undefined` for a procedure without input, else a zod schema it could be checking its input with. */
type InputSchema<I> = [I] extends [void] ? undefined : z.ZodType<unknown, I>;

export interface Entry<P extends ProcedurePath> {
  type: At<P>['type'];
  access: Access;
  input: InputSchema<At<P>['input']>;
}

export const PROCEDURES = {
  'courses.list': { type: 'query', access: 'staff', input: ZListCoursesInput },
  'courses.options': { type: 'query', access: 'staff', input: undefined },
  'courses.categories': { type: 'query', access: 'staff', input: undefined },
  'courses.filtered': { type: 'query', access: 'staff', input: ZFilterCoursesInput },
  'courses.get': { type: 'query', access: 'staff', input: ZCourseIdInput },
  'courses.create': { type: 'mutation', access: 'staff', input: ZCreateCourseInput },
  'courses.update': { type: 'mutation', access: 'staff', input: ZUpdateCourseInput },
  'courses.delete': { type: 'mutation', access: 'staff', input: ZCourseIdInput },

  'enrollments.list': { type: 'query', access: 'staff', input: ZListEnrollmentsInput },
  'enrollments.byStudent': { type: 'query', access: 'staff', input: ZStudentEnrollmentsInput },
  'enrollments.get': { type: 'query', access: 'staff', input: ZEnrollmentIdInput },
  'enrollments.overdue': { type: 'query', access: 'staff', input: ZOverdueInput },
  'enrollments.statistics': { type: 'query', access: 'staff', input: undefined },
  'enrollments.currency': { type: 'query', access: 'staff', input: undefined },
  'enrollments.create': { type: 'mutation', access: 'staff', input: ZCreateEnrollmentInput },
  'enrollments.update': { type: 'mutation', access: 'admin', input: ZUpdateEnrollmentInput },
  'enrollments.payInstallment': { type: 'mutation', access: 'admin', input: ZPayInstallmentInput },
  'enrollments.payAdmissionFee': { type: 'mutation', access: 'admin', input: ZPayAdmissionFeeInput },
  'enrollments.complete': { type: 'mutation', access: 'admin', input: ZEnrollmentIdInput },
  'enrollments.delete': { type: 'mutation', access: 'admin', input: ZDeleteEnrollmentInput },

  'auth.login': { type: 'mutation', access: 'public', input: ZLoginInput },
  'auth.logout': { type: 'mutation', access: 'authed', input: undefined },
  'auth.me': { type: 'query', access: 'authed', input: undefined },

  'branches.list': { type: 'query', access: 'staff', input: ZListBranchesInput },
  'branches.options': { type: 'query', access: 'staff', input: undefined },
  'branches.get': { type: 'query', access: 'staff', input: ZBranchIdInput },
  'branches.create': { type: 'mutation', access: 'admin', input: ZCreateBranchInput },
  'branches.update': { type: 'mutation', access: 'admin', input: ZUpdateBranchInput },
  'branches.delete': { type: 'mutation', access: 'admin', input: ZBranchIdInput },

  'users.contactPreferences': { type: 'mutation', access: 'authed', input: ZContactPreferencesInput },
  'users.list': { type: 'query', access: 'staff', input: ZListUsersInput },
  'users.search': { type: 'query', access: 'staff', input: ZSearchUsersInput },
  'users.students': { type: 'query', access: 'staff', input: undefined },
  'users.get': { type: 'query', access: 'staff', input: ZUserIdInput },
  'users.create': { type: 'mutation', access: 'staff', input: ZCreateUserInput },
  'users.update': { type: 'mutation', access: 'staff', input: ZUpdateUserInput },
  'users.delete': { type: 'mutation', access: 'staff', input: ZUserIdInput },
  'users.updateProfile': { type: 'mutation', access: 'authed', input: ZUpdateProfileInput },
  'users.forgotPassword': { type: 'mutation', access: 'public', input: ZForgotPasswordInput },
  'users.validateOtp': { type: 'mutation', access: 'public', input: ZValidateOtpInput },
  'users.resetPassword': { type: 'mutation', access: 'public', input: ZResetPasswordInput },
  'users.invite': { type: 'mutation', access: 'staff', input: ZUserIdInput },

  'treatments.list': { type: 'query', access: 'staff', input: ZListTreatmentsInput },
  'treatments.options': { type: 'query', access: 'staff', input: undefined },
  'treatments.get': { type: 'query', access: 'staff', input: ZTreatmentIdInput },
  'treatments.create': { type: 'mutation', access: 'admin', input: ZCreateTreatmentInput },
  'treatments.update': { type: 'mutation', access: 'admin', input: ZUpdateTreatmentInput },
  'treatments.delete': { type: 'mutation', access: 'admin', input: ZTreatmentIdInput },

  'bookings.list': { type: 'query', access: 'staff', input: ZListBookingsInput },
  'bookings.get': { type: 'query', access: 'staff', input: ZBookingIdInput },
  'bookings.book': { type: 'mutation', access: 'admin', input: ZBookTreatmentInput },
  'bookings.setSessions': { type: 'mutation', access: 'staff', input: ZSetSessionsInput },
  'bookings.saveNote': { type: 'mutation', access: 'staff', input: ZSaveNoteInput },
  'bookings.setInstallmentPaid': { type: 'mutation', access: 'admin', input: ZSetInstallmentPaidInput },
  'bookings.cancel': { type: 'mutation', access: 'admin', input: ZBookingIdInput },
  'bookings.delete': { type: 'mutation', access: 'admin', input: ZBookingIdInput },

  'reports.userStats': { type: 'query', access: 'staff', input: undefined },
  'reports.courseStats': { type: 'query', access: 'staff', input: undefined },
  'reports.treatmentStats': { type: 'query', access: 'staff', input: undefined },
  'reports.count': { type: 'query', access: 'staff', input: ZReportCountInput },
  'reports.fileStatus': { type: 'query', access: 'staff', input: ZReportFileIdInput },

  'settings.getCurrency': { type: 'query', access: 'staff', input: undefined },
  'settings.updateCurrency': { type: 'mutation', access: 'admin', input: ZUpdateCurrencyInput },
  'settings.getAccess': { type: 'query', access: 'staff', input: undefined },
  'settings.updateAccess': { type: 'mutation', access: 'admin', input: ZUpdateAccessInput },
  'settings.getOrganisation': { type: 'query', access: 'staff', input: undefined },
  'settings.updateOrganisation': { type: 'mutation', access: 'admin', input: ZOrganisationInput },
  'settings.getPortal': { type: 'query', access: 'staff', input: undefined },
  'settings.updatePortal': { type: 'mutation', access: 'admin', input: ZPortalSettingsInput },

  'payments.record': { type: 'mutation', access: 'staff', input: ZRecordPaymentInput },
  'payments.list': { type: 'query', access: 'staff', input: ZListPaymentsInput },
  'payments.get': { type: 'query', access: 'staff', input: ZPaymentIdInput },
  'payments.ofEnrollment': { type: 'query', access: 'staff', input: ZPaymentsOfInput },
  'payments.ofBooking': { type: 'query', access: 'staff', input: ZPaymentsOfInput },
  'payments.emailReceipt': { type: 'mutation', access: 'staff', input: ZPaymentIdInput },
  'payments.void': { type: 'mutation', access: 'admin', input: ZVoidPaymentInput },
  'payments.cashUp': { type: 'query', access: 'staff', input: ZCashUpInput },
  'payments.dashboard': { type: 'query', access: 'staff', input: ZDashboardInput },
  'payments.unmarkPreview': { type: 'query', access: 'admin', input: ZUnmarkPreviewInput },

  'jobs.list': { type: 'query', access: 'admin', input: ZListJobsInput },
  'jobs.retry': { type: 'mutation', access: 'admin', input: ZRetryJobInput },
  'jobs.sendReminders': { type: 'mutation', access: 'admin', input: undefined },

  'audit.list': { type: 'query', access: 'admin', input: ZAuditListInput },
  'audit.forEntity': { type: 'query', access: 'admin', input: ZAuditForEntityInput },

  'statements.get': { type: 'query', access: 'staff', input: ZStatementInput },
  'statements.email': { type: 'mutation', access: 'staff', input: ZStatementInput },

  'search.global': { type: 'query', access: 'staff', input: ZGlobalSearchInput },

  'tills.list': { type: 'query', access: 'staff', input: ZListTillsInput },
  'tills.get': { type: 'query', access: 'staff', input: ZTillIdInput },
  'tills.open': { type: 'mutation', access: 'staff', input: ZOpenTillInput },
  'tills.close': { type: 'mutation', access: 'staff', input: ZCloseTillInput },
  'tills.settings': { type: 'query', access: 'staff', input: undefined },
  'tills.updateSettings': { type: 'mutation', access: 'admin', input: ZTillSettingsInput },

  'receivables.list': { type: 'query', access: 'staff', input: ZReceivablesInput },

  'practitioners.list': { type: 'query', access: 'staff', input: ZListPractitionersInput },
  'practitioners.get': { type: 'query', access: 'staff', input: ZPractitionerIdInput },
  'practitioners.create': { type: 'mutation', access: 'admin', input: ZCreatePractitionerInput },
  'practitioners.update': { type: 'mutation', access: 'admin', input: ZUpdatePractitionerInput },
  'practitioners.remove': { type: 'mutation', access: 'admin', input: ZPractitionerIdInput },
  'practitioners.workingPlan': { type: 'query', access: 'staff', input: ZWorkingPlanInput },
  'practitioners.setWorkingPlan': { type: 'mutation', access: 'admin', input: ZSetWorkingPlanInput },
  'practitioners.timeOff.list': { type: 'query', access: 'staff', input: ZListTimeOffInput },
  'practitioners.timeOff.add': { type: 'mutation', access: 'admin', input: ZAddTimeOffInput },
  'practitioners.timeOff.remove': { type: 'mutation', access: 'admin', input: ZTimeOffIdInput },
  'practitioners.closures.list': { type: 'query', access: 'staff', input: ZListClosuresInput },
  'practitioners.closures.add': { type: 'mutation', access: 'admin', input: ZAddClosureInput },
  'practitioners.closures.remove': { type: 'mutation', access: 'admin', input: ZClosureIdInput },

  'rooms.list': { type: 'query', access: 'staff', input: ZListRoomsInput },
  'rooms.get': { type: 'query', access: 'staff', input: ZRoomIdInput },
  'rooms.create': { type: 'mutation', access: 'admin', input: ZCreateRoomInput },
  'rooms.update': { type: 'mutation', access: 'admin', input: ZUpdateRoomInput },
  'rooms.remove': { type: 'mutation', access: 'admin', input: ZRoomIdInput },

  'appointments.list': { type: 'query', access: 'staff', input: ZListAppointmentsInput },
  'appointments.get': { type: 'query', access: 'staff', input: ZAppointmentIdInput },
  'appointments.today': { type: 'query', access: 'staff', input: ZTodayInput },
  'appointments.availability': { type: 'query', access: 'staff', input: ZAvailabilityInput },
  'appointments.create': { type: 'mutation', access: 'staff', input: ZCreateAppointmentInput },
  'appointments.reschedule': { type: 'mutation', access: 'staff', input: ZRescheduleAppointmentInput },
  'appointments.setStatus': { type: 'mutation', access: 'staff', input: ZAppointmentStatusInput },
  'appointments.figures': { type: 'query', access: 'staff', input: ZAppointmentFiguresInput },
  'appointments.clock': { type: 'query', access: 'staff', input: undefined },
  'appointments.createSeries': { type: 'mutation', access: 'staff', input: ZAppointmentSeriesInput },

  'batches.list': { type: 'query', access: 'staff', input: ZListBatchesInput },
  'batches.get': { type: 'query', access: 'staff', input: ZBatchIdInput },
  'batches.create': { type: 'mutation', access: 'admin', input: ZCreateBatchInput },
  'batches.update': { type: 'mutation', access: 'admin', input: ZUpdateBatchInput },
  'batches.delete': { type: 'mutation', access: 'admin', input: ZBatchIdInput },
  'batches.sessions': { type: 'query', access: 'authed', input: ZBatchSessionsInput },
  'batches.register': { type: 'query', access: 'staff', input: ZRegisterInput },
  'batches.roster': { type: 'query', access: 'staff', input: ZBatchIdInput },
  'batches.join': { type: 'mutation', access: 'staff', input: ZJoinBatchInput },
  'batches.leave': { type: 'mutation', access: 'staff', input: ZClassEnrollmentIdInput },

  'classSessions.clock': { type: 'query', access: 'authed', input: undefined },
  'classSessions.inBranch': { type: 'query', access: 'staff', input: ZBranchSessionsInput },
  'classSessions.day': { type: 'query', access: 'authed', input: ZDaySessionsInput },
  'classSessions.cancel': { type: 'mutation', access: 'admin', input: ZCancelSessionInput },
  'classSessions.move': { type: 'mutation', access: 'admin', input: ZMoveSessionInput },
  'classSessions.attendance': { type: 'query', access: 'authed', input: ZSessionIdInput },
  'classSessions.takeAttendance': { type: 'mutation', access: 'authed', input: ZTakeAttendanceInput },

  'attendance.enrollment': { type: 'query', access: 'staff', input: ZClassEnrollmentIdInput },
  'attendance.fallingBehind': { type: 'query', access: 'staff', input: ZFallingBehindInput },

  'appointmentReports.get': { type: 'query', access: 'staff', input: ZAppointmentReportFilters },

  'attendanceReports.get': { type: 'query', access: 'staff', input: ZAttendanceReportFilters },
  'attendanceReports.students': { type: 'query', access: 'staff', input: ZAttendanceStudentsInput },

  'adjustments.create': { type: 'mutation', access: 'staff', input: ZCreateAdjustmentInput },
  'adjustments.preview': { type: 'query', access: 'staff', input: ZCreateAdjustmentInput },
  'adjustments.list': { type: 'query', access: 'staff', input: ZAdjustmentsOfInput },
  'adjustments.search': { type: 'query', access: 'staff', input: ZListAdjustmentsInput },
  'adjustments.summary': { type: 'query', access: 'staff', input: ZMoneyChangesInput },
  'adjustments.get': { type: 'query', access: 'staff', input: ZAdjustmentIdInput },
  'adjustments.revoke': { type: 'mutation', access: 'admin', input: ZRevokeAdjustmentInput },
  'adjustments.approve': { type: 'mutation', access: 'admin', input: ZDecideAdjustmentInput },
  'adjustments.reject': { type: 'mutation', access: 'admin', input: ZDecideAdjustmentInput },
  'adjustments.settings': { type: 'query', access: 'staff', input: undefined },
  'adjustments.updateSettings': { type: 'mutation', access: 'admin', input: ZAdjustmentSettingsInput },
  'adjustments.schemes': { type: 'query', access: 'staff', input: undefined },
  'adjustments.createScheme': { type: 'mutation', access: 'admin', input: ZSchemeInput },
  'adjustments.updateScheme': { type: 'mutation', access: 'admin', input: ZUpdateSchemeInput },

  'refunds.create': { type: 'mutation', access: 'admin', input: ZRefundPaymentInput },
  'refunds.createWaived': { type: 'mutation', access: 'admin', input: ZRefundPaymentInput },
  'refunds.list': { type: 'query', access: 'staff', input: ZListRefundsInput },
  'refunds.get': { type: 'query', access: 'staff', input: ZRefundIdInput },
  'refunds.emailCreditNote': { type: 'mutation', access: 'staff', input: ZRefundIdInput },

  'portal.me': { type: 'query', access: 'authed', input: undefined },
  'portal.home': { type: 'query', access: 'authed', input: undefined },
  'portal.enrollments': { type: 'query', access: 'authed', input: undefined },
  'portal.enrollment': { type: 'query', access: 'authed', input: ZPortalIdInput },
  'portal.bookings': { type: 'query', access: 'authed', input: undefined },
  'portal.booking': { type: 'query', access: 'authed', input: ZPortalIdInput },
  'portal.appointments': { type: 'query', access: 'authed', input: ZPortalAppointmentsInput },
  'portal.payments': { type: 'query', access: 'authed', input: undefined },
  'portal.howToPay': { type: 'query', access: 'authed', input: undefined },
  'portal.profile': { type: 'query', access: 'authed', input: undefined },
  'portal.saveProfile': { type: 'mutation', access: 'authed', input: ZPortalProfileInput },
  'portal.settings': { type: 'query', access: 'authed', input: undefined },
  'portal.cancelAppointment': { type: 'mutation', access: 'authed', input: ZPortalCancelInput },
  'portal.availability': { type: 'query', access: 'authed', input: ZPortalAvailabilityInput },
  'portal.bookAppointment': { type: 'mutation', access: 'authed', input: ZPortalBookBody },
  'portal.moveAppointment': { type: 'mutation', access: 'authed', input: ZPortalMoveInput },
  'portal.requestCode': { type: 'mutation', access: 'public', input: ZPortalCodeInput },
  'portal.verifyCode': { type: 'mutation', access: 'public', input: ZPortalCodeVerifyInput },
  'portal.acceptInvitation': { type: 'mutation', access: 'public', input: ZInvitationAcceptInput },

  'messages.list': { type: 'query', access: 'admin', input: ZListMessagesInput },
  'messages.resend': { type: 'mutation', access: 'admin', input: ZMessageIdInput },

  'messageTemplates.list': { type: 'query', access: 'staff', input: undefined },
  'messageTemplates.save': { type: 'mutation', access: 'admin', input: ZSaveTemplatesInput },
  'messageTemplates.preview': { type: 'mutation', access: 'staff', input: ZPreviewInput },

  'messageSettings.get': { type: 'query', access: 'staff', input: undefined },
  'messageSettings.save': { type: 'mutation', access: 'admin', input: ZMessageSettings },
} satisfies { [P in ProcedurePath]: Entry<P> };

/**
 * The `satisfies` lets through a schema whose input is assignable to the procedure's, such as one
 * that knows fewer optional fields; this names each path whose schema's input type is not the very
 * type the procedure takes. (Two types are identical when TypeScript treats conditional types over
 * them alike; mutual assignability would still pass a missing optional field.)
 */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type SchemaInput<S> = S extends z.ZodType ? AsProcedureInput<z.input<S>> : void;
type Inexact = {
  [P in ProcedurePath]: Same<SchemaInput<(typeof PROCEDURES)[P]['input']>, At<P>['input']> extends true ? never : P;
}[ProcedurePath];
type NoneOf<T extends never> = T;
export type EveryInputExact = NoneOf<Inexact>;

export interface ProcedureEntry {
  path: ProcedurePath;
  type: Procedure['type'];
  access: Access;
  input: z.ZodType | undefined;
}

/** The catalogue as a list, in the router's order. */
export const procedureList: ProcedureEntry[] = Object.entries(PROCEDURES).map(([path, entry]) => ({
  path: path as ProcedurePath,
  ...entry,
}));
