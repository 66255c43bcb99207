import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppDeps } from '../../deps';
import { route, ZIdParam } from '../../http/rest';
import {
  ZBookTreatmentBody,
  ZListBookingsQuery,
  ZPaymentBody,
  ZPayInstallmentBody,
  ZProgressBody,
} from '@shared/schemas/bookings';
import * as queries from './bookings.queries';
import * as service from './bookings.service';
import { ZBooking, ZBookingList, ZPayInstallmentAnswer } from '@shared/schemas/bookings.output';
import { ZMessage } from '@shared/schemas/output';

const ZPairParams = z.object({ userId: z.string(), treatmentId: z.string() });
const ZBookingIdParam = z.object({ bookingId: z.string() });
const ZUserIdParam = z.object({ userId: z.string() });

/**
 * docs/product.md#rest-paths, Treatment bookings; access as in bookings.router.ts. Fastify's router keeps
 * static segments ahead of parameters and matches per method, so `/bookings` (GET list),
 * `/bookings/:userId` (GET), `/bookings/:id` (DELETE) and `/bookings/:id/cancel` (PUT) coexist;
 * tests/integration/bookings-rest.test.ts calls each of them.
 */
export function registerBookingRest(app: FastifyInstance, deps: AppDeps) {
  route(app, deps, {
    method: 'POST',
    url: '/api/bookings/book',
    access: 'admin',
    response: ZBooking,
    body: ZBookTreatmentBody,
    status: 201,
    handler: ({ ctx, body }) =>
      service.bookTreatment(ctx, {
        customer: { userId: body.userId },
        treatmentId: body.treatmentId,
        userType: body.userType,
        paymentType: body.paymentType,
        bookedOn: body.bookedOn,
      }),
  });
  route(app, deps, {
    method: 'GET',
    url: '/api/bookings/progress/:userId/:treatmentId',
    access: 'staff',
    response: ZBooking,
    params: ZPairParams,
    handler: ({ ctx, params }) => queries.getProgress(ctx, params.userId, params.treatmentId),
  });
  route(app, deps, {
    method: 'PUT',
    url: '/api/bookings/progress/:userId/:treatmentId',
    access: 'staff',
    response: ZBooking,
    params: ZPairParams,
    body: ZProgressBody,
    handler: async ({ ctx, params, body }) =>
      service.updateProgress(ctx, await queries.newestBookingId(ctx, params.userId, params.treatmentId), body),
  });
  route(app, deps, {
    method: 'PUT',
    url: '/api/bookings/payment/:bookingId',
    access: 'admin',
    response: ZBooking,
    params: ZBookingIdParam,
    body: ZPaymentBody,
    handler: ({ ctx, params, body }) => service.updatePayment(ctx, params.bookingId, body),
  });
  route(app, deps, {
    method: 'POST',
    url: '/api/bookings/:bookingId/pay-installment',
    access: 'admin',
    response: ZPayInstallmentAnswer,
    params: ZBookingIdParam,
    body: ZPayInstallmentBody,
    handler: async ({ ctx, params, body }) => {
      await service.setInstallmentPaid(ctx, params.bookingId, body);
      return { success: true, message: 'Installment status updated!' };
    },
  });
  route(app, deps, {
    method: 'GET',
    url: '/api/bookings/booking/:id',
    access: 'staff',
    response: ZBooking,
    params: ZIdParam,
    handler: ({ ctx, params }) => queries.getBooking(ctx, params.id),
  });
  route(app, deps, {
    method: 'GET',
    url: '/api/bookings/bookings',
    access: 'staff',
    response: ZBookingList,
    query: ZListBookingsQuery,
    handler: ({ ctx, query }) => queries.listAllBookings(ctx, query),
  });
  route(app, deps, {
    method: 'GET',
    url: '/api/bookings/bookings/:userId',
    access: 'staff',
    response: ZBookingList,
    params: ZUserIdParam,
    handler: ({ ctx, params }) => queries.listUserBookings(ctx, params.userId),
  });
  route(app, deps, {
    method: 'PUT',
    url: '/api/bookings/bookings/:id/cancel',
    access: 'admin',
    response: ZBooking,
    params: ZIdParam,
    handler: ({ ctx, params }) => service.cancelBooking(ctx, params.id),
  });
  route(app, deps, {
    method: 'DELETE',
    url: '/api/bookings/bookings/:id',
    access: 'admin',
    response: ZMessage,
    params: ZIdParam,
    handler: ({ ctx, params }) => service.deleteBooking(ctx, params.id),
  });
}
