import type { FastifyInstance } from 'fastify';
import type { AppDeps } from './deps';
import { registerCourseRest } from './domains/courses/courses.rest';
import { registerEnrollmentRest } from './domains/enrollments/enrollments.rest';
import { registerBookingRest } from './domains/bookings/bookings.rest';
import { registerTreatmentRest } from './domains/treatments/treatments.rest';
import { registerAuthRest } from './domains/auth/auth.rest';
import { registerBranchRest } from './domains/branches/branches.rest';
import { registerFilesRest } from './domains/files/files.rest';
import { registerUsersRest } from './domains/users/users.rest';
import { registerReportRest } from './domains/reports/reports.rest';
import { registerRemindersRest } from './domains/reminders/reminders.rest';
import { registerPaymentsRest } from './domains/payments/payments.rest';
import { registerAuditRest } from './domains/audit/audit.rest';
import { registerStatementRest } from './domains/statements/statements.rest';
import { registerSearchRest } from './domains/search/search.rest';
import { registerTillsRest } from './domains/tills/tills.rest';
import { registerOrganisationRest } from './domains/settings/organisation.rest';
import { registerReceivablesRest } from './domains/receivables/receivables.rest';
import { registerPractitionersRest } from './domains/practitioners/practitioners.rest';
import { registerRoomsRest } from './domains/rooms/rooms.rest';
import { registerAppointmentsRest } from './domains/appointments/appointments.rest';
import { registerClassesRest } from './domains/classes/classes.rest';
import { registerAppointmentReportsRest } from './domains/appointment-reports/appointment-reports.rest';
import { registerAttendanceReportsRest } from './domains/attendance-reports/attendance-reports.rest';
import { registerAdjustmentsRest } from './domains/adjustments/adjustments.rest';
import { registerRefundsRest } from './domains/refunds/refunds.rest';
import { registerPortalRest } from './domains/portal/portal.rest';
import { registerMessagesRest } from './domains/messages/messages.rest';

/** Every domain's documented /api paths. */
export const restModules: Array<(app: FastifyInstance, deps: AppDeps) => void> = [
  registerCourseRest,
  registerEnrollmentRest,
  registerAuthRest,
  registerBranchRest,
  registerUsersRest,
  registerFilesRest,
  registerTreatmentRest,
  registerBookingRest,
  registerReportRest,
  registerRemindersRest,
  registerPaymentsRest,
  registerAuditRest,
  registerStatementRest,
  registerSearchRest,
  registerTillsRest,
  registerOrganisationRest,
  registerReceivablesRest,
  registerPractitionersRest,
  registerRoomsRest,
  registerAppointmentsRest,
  registerClassesRest,
  registerAppointmentReportsRest,
  registerAttendanceReportsRest,
  registerAdjustmentsRest,
  registerRefundsRest,
  registerPortalRest,
  registerMessagesRest,
];
