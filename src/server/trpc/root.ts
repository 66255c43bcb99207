import { authRouter } from '../domains/auth/auth.router';
import { branchesRouter } from '../domains/branches/branches.router';
import { usersRouter } from '../domains/users/users.router';
import { bookingsRouter } from '../domains/bookings/bookings.router';
import { treatmentsRouter } from '../domains/treatments/treatments.router';
import { coursesRouter } from '../domains/courses/courses.router';
import { enrollmentsRouter } from '../domains/enrollments/enrollments.router';
import { reportsRouter } from '../domains/reports/reports.router';
import { settingsRouter } from '../domains/settings/settings.router';
import { jobsRouter } from '../domains/settings/jobs.router';
import { paymentsRouter } from '../domains/payments/payments.router';
import { auditRouter } from '../domains/audit/audit.router';
import { statementsRouter } from '../domains/statements/statements.router';
import { searchRouter } from '../domains/search/search.router';
import { tillsRouter } from '../domains/tills/tills.router';
import { receivablesRouter } from '../domains/receivables/receivables.router';
import { practitionersRouter } from '../domains/practitioners/practitioners.router';
import { roomsRouter } from '../domains/rooms/rooms.router';
import { appointmentsRouter } from '../domains/appointments/appointments.router';
import { batchesRouter } from '../domains/classes/batches.router';
import { classSessionsRouter } from '../domains/classes/class-sessions.router';
import { attendanceRouter } from '../domains/classes/attendance.router';
import { appointmentReportsRouter } from '../domains/appointment-reports/appointment-reports.router';
import { attendanceReportsRouter } from '../domains/attendance-reports/attendance-reports.router';
import { adjustmentsRouter } from '../domains/adjustments/adjustments.router';
import { refundsRouter } from '../domains/refunds/refunds.router';
import { portalRouter } from '../domains/portal/portal.router';
import { messageSettingsRouter, messageTemplatesRouter, messagesRouter } from '../domains/messages/messages.router';
import { router } from './init';

export const appRouter = router({
  courses: coursesRouter,
  enrollments: enrollmentsRouter,
  auth: authRouter,
  branches: branchesRouter,
  users: usersRouter,
  treatments: treatmentsRouter,
  bookings: bookingsRouter,
  reports: reportsRouter,
  settings: settingsRouter,
  payments: paymentsRouter,
  jobs: jobsRouter,
  audit: auditRouter,
  statements: statementsRouter,
  search: searchRouter,
  tills: tillsRouter,
  receivables: receivablesRouter,
  practitioners: practitionersRouter,
  rooms: roomsRouter,
  appointments: appointmentsRouter,
  batches: batchesRouter,
  classSessions: classSessionsRouter,
  attendance: attendanceRouter,
  appointmentReports: appointmentReportsRouter,
  attendanceReports: attendanceReportsRouter,
  adjustments: adjustmentsRouter,
  refunds: refundsRouter,
  portal: portalRouter,
  messages: messagesRouter,
  messageTemplates: messageTemplatesRouter,
  messageSettings: messageSettingsRouter,
});

export type AppRouter = typeof appRouter;
