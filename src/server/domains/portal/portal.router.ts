import { router } from '../../trpc/init';
import { authedProcedure, limitedProcedure, serve, serveId } from '../../trpc/procedures';
import {
  ZInvitationAcceptInput,
  ZPortalAppointment,
  ZPortalAppointmentList,
  ZPortalAppointmentsInput,
  ZPortalAvailability,
  ZPortalAvailabilityInput,
  ZPortalBookBody,
  ZPortalBooking,
  ZPortalBookingList,
  ZPortalCancelInput,
  ZPortalCodeInput,
  ZPortalCodeSent,
  ZPortalCodeVerifyInput,
  ZPortalEnrollment,
  ZPortalEnrollmentList,
  ZPortalHome,
  ZPortalHowToPay,
  ZPortalIdInput,
  ZPortalMe,
  ZPortalMoveInput,
  ZPortalPaymentList,
  ZPortalProfile,
  ZPortalProfileInput,
  ZPortalSettings,
  ZPortalSignedIn,
} from '@shared/schemas/portal';
import * as home from './portal.home';
import * as paid from './portal.payments';
import * as read from './portal.read';
import * as service from './portal.service';
import * as auth from './portal-auth.service';
import { getPortalSettings } from './portal.settings';

/**
 * The portal (docs/portal.md): any signed-in person, about themselves only. No procedure takes a
 * person's id; each reads the person from the session (`ctx.svc.actor`).
 */
export const portalRouter = router({
  me: authedProcedure.output(ZPortalMe).query(serve(read.portalMe)),
  home: authedProcedure.output(ZPortalHome).query(serve(home.portalHome)),
  enrollments: authedProcedure.output(ZPortalEnrollmentList).query(serve(read.portalEnrollments)),
  enrollment: authedProcedure.input(ZPortalIdInput).output(ZPortalEnrollment).query(serveId(read.portalEnrollment)),
  bookings: authedProcedure.output(ZPortalBookingList).query(serve(read.portalBookings)),
  booking: authedProcedure.input(ZPortalIdInput).output(ZPortalBooking).query(serveId(read.portalBooking)),
  appointments: authedProcedure
    .input(ZPortalAppointmentsInput)
    .output(ZPortalAppointmentList)
    .query(serve(read.portalAppointments)),
  payments: authedProcedure.output(ZPortalPaymentList).query(serve(paid.portalPayments)),
  howToPay: authedProcedure.output(ZPortalHowToPay).query(serve(paid.portalHowToPay)),
  profile: authedProcedure.output(ZPortalProfile).query(serve(read.portalProfile)),
  saveProfile: authedProcedure
    .input(ZPortalProfileInput)
    .output(ZPortalProfile)
    .mutation(serve(service.savePortalProfile)),
  settings: authedProcedure.output(ZPortalSettings).query(({ ctx }) => getPortalSettings(ctx.svc.db)),
  cancelAppointment: authedProcedure
    .input(ZPortalCancelInput)
    .output(ZPortalAppointment)
    .mutation(serve(service.cancelPortalAppointment)),
  availability: authedProcedure
    .input(ZPortalAvailabilityInput)
    .output(ZPortalAvailability)
    .query(serve(service.portalAvailability)),
  bookAppointment: authedProcedure
    .input(ZPortalBookBody)
    .output(ZPortalAppointment)
    .mutation(serve(service.bookPortalAppointment)),
  moveAppointment: authedProcedure
    .input(ZPortalMoveInput)
    .output(ZPortalAppointment)
    .mutation(serve(service.movePortalAppointment)),
  requestCode: limitedProcedure('portalCode')
    .input(ZPortalCodeInput)
    .output(ZPortalCodeSent)
    .mutation(serve(auth.requestPortalCode)),
  verifyCode: limitedProcedure('otp')
    .input(ZPortalCodeVerifyInput)
    .output(ZPortalSignedIn)
    .mutation(async ({ ctx, input }) => {
      const result = await auth.verifyPortalCodeAndSignIn(ctx.svc, input);
      ctx.setSession(result.token, new Date(Date.now() + ctx.deps.sessionPolicy.maxMs));
      return { ...result.user, token: result.token };
    }),
  acceptInvitation: limitedProcedure('invitation')
    .input(ZInvitationAcceptInput)
    .output(ZPortalSignedIn)
    .mutation(async ({ ctx, input }) => {
      const result = await auth.acceptInvitation(ctx.svc, input);
      ctx.setSession(result.token, new Date(Date.now() + ctx.deps.sessionPolicy.maxMs));
      return { ...result.user, token: result.token };
    }),
});
