import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppDeps } from '../../deps';
import { setSessionCookie } from '../../http/auth-hook';
import { route, ZIdParam } from '../../http/rest';
import {
  ZInvitationAcceptInput,
  ZInviteSent,
  ZPortalAppointment,
  ZPortalAppointmentList,
  ZPortalAppointmentsInput,
  ZPortalAvailability,
  ZPortalAvailabilityInput,
  ZPortalBookBody,
  ZPortalBooking,
  ZPortalBookingList,
  ZPortalCancelBody,
  ZPortalCodeInput,
  ZPortalCodeSent,
  ZPortalCodeVerifyInput,
  ZPortalEnrollment,
  ZPortalEnrollmentList,
  ZPortalHome,
  ZPortalHowToPay,
  ZPortalMe,
  ZPortalMoveBody,
  ZPortalPaymentList,
  ZPortalProfile,
  ZPortalProfileInput,
  ZPortalSettings,
  ZPortalSettingsInput,
  ZPortalSignedIn,
  ZPortalStatementInput,
} from '@shared/schemas/portal';
import { receiptPdf } from '../payments/payments.service';
import { CONTENT_TYPES } from '../reports/reports.service';
import { statementPdf } from '../statements/statements.service';
import * as home from './portal.home';
import * as paid from './portal.payments';
import * as read from './portal.read';
import * as service from './portal.service';
import * as auth from './portal-auth.service';
import { getPortalSettings, updatePortalSettings } from './portal.settings';

function pdfAnswer(reply: FastifyReply, fileName: string, pdf: Buffer) {
  return reply
    .header('content-type', CONTENT_TYPES.pdf)
    .header('content-disposition', `attachment; filename="${fileName}"`)
    .header('cache-control', 'no-store')
    .send(pdf);
}

/**
 * The portal's documented /api paths (docs/portal.md#what-a-person-sees): the same service functions as the
 * `portal` tRPC router. Every signed-in path reads the person from the session; none takes a
 * person's id, and one sent in a query or body is dropped by the schemas.
 */
export function registerPortalRest(app: FastifyInstance, deps: AppDeps) {
  route(app, deps, {
    method: 'GET',
    url: '/api/portal/me',
    access: 'authed',
    response: ZPortalMe,
    handler: ({ ctx }) => read.portalMe(ctx),
  });
  route(app, deps, {
    method: 'GET',
    url: '/api/portal/home',
    access: 'authed',
    response: ZPortalHome,
    handler: ({ ctx }) => home.portalHome(ctx),
  });
  route(app, deps, {
    method: 'GET',
    url: '/api/portal/enrollments',
    access: 'authed',
    response: ZPortalEnrollmentList,
    handler: ({ ctx }) => read.portalEnrollments(ctx),
  });
  route(app, deps, {
    method: 'GET',
    url: '/api/portal/enrollments/:id',
    access: 'authed',
    params: ZIdParam,
    response: ZPortalEnrollment,
    handler: ({ ctx, params }) => read.portalEnrollment(ctx, params.id),
  });
  route(app, deps, {
    method: 'GET',
    url: '/api/portal/bookings',
    access: 'authed',
    response: ZPortalBookingList,
    handler: ({ ctx }) => read.portalBookings(ctx),
  });
  route(app, deps, {
    method: 'GET',
    url: '/api/portal/bookings/:id',
    access: 'authed',
    params: ZIdParam,
    response: ZPortalBooking,
    handler: ({ ctx, params }) => read.portalBooking(ctx, params.id),
  });
  route(app, deps, {
    method: 'GET',
    url: '/api/portal/appointments',
    access: 'authed',
    query: ZPortalAppointmentsInput,
    response: ZPortalAppointmentList,
    handler: ({ ctx, query }) => read.portalAppointments(ctx, query),
  });
  route(app, deps, {
    method: 'GET',
    url: '/api/portal/payments',
    access: 'authed',
    response: ZPortalPaymentList,
    handler: ({ ctx }) => paid.portalPayments(ctx),
  });
  route(app, deps, {
    method: 'GET',
    url: '/api/portal/payments/:id/receipt',
    access: 'authed',
    params: ZIdParam,
    handler: async ({ ctx, params, reply }) => {
      // The person's own payment, then the very PDF staff print (and its download entry).
      await paid.assertOwnPayment(ctx, params.id);
      const { fileName, pdf } = await receiptPdf(ctx, params.id);
      return pdfAnswer(reply, fileName, pdf);
    },
  });
  route(app, deps, {
    method: 'GET',
    url: '/api/portal/statement/pdf',
    access: 'authed',
    query: ZPortalStatementInput,
    handler: async ({ ctx, query, reply }) => {
      const { fileName, pdf } = await statementPdf(ctx, { userId: ctx.actor.id, from: query.from, to: query.to });
      return pdfAnswer(reply, fileName, pdf);
    },
  });
  route(app, deps, {
    method: 'GET',
    url: '/api/portal/how-to-pay',
    access: 'authed',
    response: ZPortalHowToPay,
    handler: ({ ctx }) => paid.portalHowToPay(ctx),
  });
  route(app, deps, {
    method: 'GET',
    url: '/api/portal/settings',
    access: 'authed',
    response: ZPortalSettings,
    handler: ({ ctx }) => getPortalSettings(ctx.db),
  });
  route(app, deps, {
    method: 'GET',
    url: '/api/portal/profile',
    access: 'authed',
    response: ZPortalProfile,
    handler: ({ ctx }) => read.portalProfile(ctx),
  });
  route(app, deps, {
    method: 'PUT',
    url: '/api/portal/profile',
    access: 'authed',
    body: ZPortalProfileInput,
    response: ZPortalProfile,
    handler: ({ ctx, body }) => service.savePortalProfile(ctx, body),
  });
  route(app, deps, {
    method: 'POST',
    url: '/api/portal/appointments/:id/cancel',
    access: 'authed',
    params: ZIdParam,
    body: ZPortalCancelBody,
    response: ZPortalAppointment,
    handler: ({ ctx, params, body }) => service.cancelPortalAppointment(ctx, { id: params.id, reason: body.reason }),
  });
  route(app, deps, {
    method: 'GET',
    url: '/api/portal/availability',
    access: 'authed',
    query: ZPortalAvailabilityInput,
    response: ZPortalAvailability,
    handler: ({ ctx, query }) => service.portalAvailability(ctx, query),
  });
  route(app, deps, {
    method: 'POST',
    url: '/api/portal/appointments',
    access: 'authed',
    body: ZPortalBookBody,
    response: ZPortalAppointment,
    status: 201,
    handler: ({ ctx, body }) => service.bookPortalAppointment(ctx, body),
  });
  route(app, deps, {
    method: 'PUT',
    url: '/api/portal/appointments/:id',
    access: 'authed',
    params: ZIdParam,
    body: ZPortalMoveBody,
    response: ZPortalAppointment,
    handler: ({ ctx, params, body }) => service.movePortalAppointment(ctx, { id: params.id, ...body }),
  });

  // ---------------------------------------------------------------- signing in
  route(app, deps, {
    method: 'POST',
    url: '/api/portal/code',
    access: 'public',
    rateLimit: 'portalCode',
    body: ZPortalCodeInput,
    response: ZPortalCodeSent,
    handler: ({ ctx, body }) => auth.requestPortalCode(ctx, body),
  });
  route(app, deps, {
    method: 'POST',
    url: '/api/portal/code/verify',
    access: 'public',
    rateLimit: 'otp',
    body: ZPortalCodeVerifyInput,
    response: ZPortalSignedIn,
    handler: async ({ ctx, body, reply }) => {
      const result = await auth.verifyPortalCodeAndSignIn(ctx, body);
      setSessionCookie(reply, result.token, new Date(Date.now() + deps.sessionPolicy.maxMs));
      return { ...result.user, token: result.token };
    },
  });
  route(app, deps, {
    method: 'POST',
    url: '/api/portal/invitation/accept',
    access: 'public',
    rateLimit: 'invitation',
    body: ZInvitationAcceptInput,
    response: ZPortalSignedIn,
    handler: async ({ ctx, body, reply }) => {
      const result = await auth.acceptInvitation(ctx, body);
      setSessionCookie(reply, result.token, new Date(Date.now() + deps.sessionPolicy.maxMs));
      return { ...result.user, token: result.token };
    },
  });
  route(app, deps, {
    method: 'POST',
    url: '/api/users/:id/invite',
    access: 'staff',
    params: ZIdParam,
    response: ZInviteSent,
    handler: ({ ctx, params }) => auth.invitePerson(ctx, params.id),
  });

  // ---------------------------------------------------------------- Settings → Portal
  route(app, deps, {
    method: 'GET',
    url: '/api/settings/portal',
    access: 'staff',
    response: ZPortalSettings,
    handler: ({ ctx }) => getPortalSettings(ctx.db),
  });
  route(app, deps, {
    method: 'PUT',
    url: '/api/settings/portal',
    access: 'admin',
    body: ZPortalSettingsInput,
    response: ZPortalSettings,
    handler: ({ ctx, body }) => updatePortalSettings(ctx, body),
  });
}
