import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { route, ZIdParam } from '../../http/rest';
import {
  ZAppointment,
  ZAppointmentList,
  ZAppointmentSeries,
  ZAppointmentSeriesInput,
  ZAppointmentStatusBody,
  ZAvailability,
  ZAvailabilityInput,
  ZCreateAppointmentInput,
  ZListAppointmentsInput,
  ZRescheduleAppointmentBody,
  ZTodayInput,
  ZTodayList,
} from '@shared/schemas/appointments';
import { availability, getAppointment, listAppointments, todaysAppointments } from './appointments.read';
import { createAppointment, createSeries, rescheduleAppointment } from './appointments.service';
import { setAppointmentStatus } from './appointments.status';

/** docs/appointments.md */
export function registerAppointmentsRest(app: FastifyInstance, deps: AppDeps) {
  route(app, deps, {
    method: 'POST',
    url: '/api/appointments',
    access: 'staff',
    body: ZCreateAppointmentInput,
    response: ZAppointment,
    status: 201,
    handler: ({ ctx, body }) => createAppointment(ctx, body),
  });
  route(app, deps, {
    method: 'GET',
    url: '/api/appointments',
    access: 'staff',
    query: ZListAppointmentsInput,
    response: ZAppointmentList,
    handler: ({ ctx, query }) => listAppointments(ctx, query),
  });
  route(app, deps, {
    method: 'POST',
    url: '/api/appointments/series',
    access: 'staff',
    body: ZAppointmentSeriesInput,
    response: ZAppointmentSeries,
    status: 201,
    handler: ({ ctx, body }) => createSeries(ctx, body),
  });
  route(app, deps, {
    method: 'GET',
    url: '/api/appointments/availability',
    access: 'staff',
    query: ZAvailabilityInput,
    response: ZAvailability,
    handler: ({ ctx, query }) => availability(ctx, query),
  });
  route(app, deps, {
    method: 'GET',
    url: '/api/appointments/today',
    access: 'staff',
    query: ZTodayInput,
    response: ZTodayList,
    handler: ({ ctx, query }) => todaysAppointments(ctx, query),
  });
  route(app, deps, {
    method: 'GET',
    url: '/api/appointments/:id',
    access: 'staff',
    params: ZIdParam,
    response: ZAppointment,
    handler: ({ ctx, params }) => getAppointment(ctx, params.id),
  });
  route(app, deps, {
    method: 'PUT',
    url: '/api/appointments/:id',
    access: 'staff',
    params: ZIdParam,
    body: ZRescheduleAppointmentBody,
    response: ZAppointment,
    handler: ({ ctx, params, body }) => rescheduleAppointment(ctx, { id: params.id, ...body }),
  });
  route(app, deps, {
    method: 'POST',
    url: '/api/appointments/:id/status',
    access: 'staff',
    params: ZIdParam,
    body: ZAppointmentStatusBody,
    response: ZAppointment,
    handler: ({ ctx, params, body }) => setAppointmentStatus(ctx, { id: params.id, ...body }),
  });
}
