import { router } from '../../trpc/init';
import { adminProcedure, serve, serveId, staffProcedure } from '../../trpc/procedures';
import {
  ZBookingIdInput,
  ZBookTreatmentInput,
  ZListBookingsInput,
  ZSaveNoteInput,
  ZSetInstallmentPaidInput,
  ZSetSessionsInput,
} from '@shared/schemas/bookings';
import { ZBooking, ZBookingPage } from '@shared/schemas/bookings.output';
import { ZMessage } from '@shared/schemas/output';
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
  list: staffProcedure.input(ZListBookingsInput).output(ZBookingPage).query(serve(queries.listBookings)),
  get: staffProcedure.input(ZBookingIdInput).output(ZBooking).query(serveId(queries.getBooking)),
  book: adminProcedure
    .input(ZBookTreatmentInput)
    .output(ZBooking)
    .mutation(({ ctx, input }) =>
      service.bookTreatment(ctx.svc, {
        customer: { email: input.email },
        treatmentId: input.treatmentId,
        userType: input.userType,
        paymentType: input.paymentType,
        bookedOn: input.bookedOn,
      }),
    ),
  setSessions: staffProcedure
    .input(ZSetSessionsInput)
    .output(ZBooking)
    .mutation(({ ctx, input }) =>
      service.updateProgress(ctx.svc, input.id, { sessionsCompleted: input.sessionsCompleted }),
    ),
  saveNote: staffProcedure
    .input(ZSaveNoteInput)
    .output(ZBooking)
    .mutation(({ ctx, input }) =>
      service.updateProgress(ctx.svc, input.id, {
        sessionNotes: [{ sessionNumber: input.sessionNumber, note: input.note, date: input.date }],
      }),
    ),
  setInstallmentPaid: adminProcedure
    .input(ZSetInstallmentPaidInput)
    .output(ZBooking)
    .mutation(({ ctx, input }) =>
      service.setInstallmentPaid(ctx.svc, input.id, {
        installmentId: input.installmentId,
        isPaid: input.isPaid,
        method: input.method,
      }),
    ),
  cancel: adminProcedure.input(ZBookingIdInput).output(ZBooking).mutation(serveId(service.cancelBooking)),
  delete: adminProcedure.input(ZBookingIdInput).output(ZMessage).mutation(serveId(service.deleteBooking)),
});
