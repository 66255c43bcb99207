import { router } from '../../trpc/init';
import { adminProcedure, staffProcedure } from '../../trpc/procedures';
import {
  ZBookingIdInput,
  ZBookTreatmentInput,
  ZListBookingsInput,
  ZSaveNoteInput,
  ZSetInstallmentPaidInput,
  ZSetSessionsInput,
} from '@shared/schemas/bookings';
import * as queries from './bookings.queries';
import * as service from './bookings.service';

/**
 * Roles (docs/product.md#roles: booking screens are for staff; the book sub-link is admin-only;
 * money toggles are for admins as on the enrolment screen):
 *   list, get                                   manager, admin, superadmin
 *   setSessions, saveNote (clinical progress)   manager, admin, superadmin
 *   book, setInstallmentPaid, cancel, delete    admin, superadmin
 */
export const bookingsRouter = router({
  list: staffProcedure.input(ZListBookingsInput).query(({ ctx, input }) => queries.listBookings(ctx.svc, input)),
  get: staffProcedure.input(ZBookingIdInput).query(({ ctx, input }) => queries.getBooking(ctx.svc, input.id)),
  book: adminProcedure.input(ZBookTreatmentInput).mutation(({ ctx, input }) =>
    service.bookTreatment(ctx.svc, {
      customer: { email: input.email },
      treatmentId: input.treatmentId,
      userType: input.userType,
      paymentType: input.paymentType,
    }),
  ),
  setSessions: staffProcedure
    .input(ZSetSessionsInput)
    .mutation(({ ctx, input }) =>
      service.updateProgress(ctx.svc, input.id, { sessionsCompleted: input.sessionsCompleted }),
    ),
  saveNote: staffProcedure.input(ZSaveNoteInput).mutation(({ ctx, input }) =>
    service.updateProgress(ctx.svc, input.id, {
      sessionNotes: [{ sessionNumber: input.sessionNumber, note: input.note, date: input.date }],
    }),
  ),
  setInstallmentPaid: adminProcedure.input(ZSetInstallmentPaidInput).mutation(({ ctx, input }) =>
    service.setInstallmentPaid(ctx.svc, input.id, {
      installmentId: input.installmentId,
      isPaid: input.isPaid,
      method: input.method,
    }),
  ),
  cancel: adminProcedure.input(ZBookingIdInput).mutation(({ ctx, input }) => service.cancelBooking(ctx.svc, input.id)),
  delete: adminProcedure.input(ZBookingIdInput).mutation(({ ctx, input }) => service.deleteBooking(ctx.svc, input.id)),
});
