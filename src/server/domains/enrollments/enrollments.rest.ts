import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { route, ZIdParam } from '../../http/rest';
import {
  ZCreateEnrollmentInput,
  ZDeleteEnrollmentFields,
  ZPayAdmissionFeeFields,
  ZPayInstallmentFields,
  ZRestListQuery,
  ZUpdateEnrollmentFields,
} from '@shared/schemas/enrollments';
import * as queries from './enrollments.queries';
import * as service from './enrollments.service';
import {
  ZEnrollment,
  ZEnrollmentData,
  ZEnrollmentList,
  ZEnrollmentStatistics,
  ZOverdueInstallmentList,
} from '@shared/schemas/enrollments.output';
import { ZMessage } from '@shared/schemas/output';

/**
 * docs/product.md#rest-paths, Enrollments; roles as in enrollments.router.ts. POST /api/enrollments/send-reminders
 * belongs to the reminder jobs module.
 */
export function registerEnrollmentRest(app: FastifyInstance, deps: AppDeps) {
  route(app, deps, {
    method: 'POST',
    url: '/api/enrollments',
    access: 'staff',
    response: ZEnrollment,
    body: ZCreateEnrollmentInput,
    status: 201,
    handler: ({ ctx, body }) => service.createEnrollment(ctx, body),
  });
  route(app, deps, {
    method: 'GET',
    url: '/api/enrollments',
    access: 'staff',
    response: ZEnrollmentData,
    query: ZRestListQuery,
    handler: async ({ ctx, query }) => ({ data: await queries.listEnrollmentsWhere(ctx, {}, query.page, query.limit) }),
  });
  route(app, deps, {
    method: 'GET',
    url: '/api/enrollments/statistics',
    access: 'staff',
    response: ZEnrollmentStatistics,
    handler: ({ ctx }) => queries.enrollmentStatistics(ctx),
  });
  route(app, deps, {
    method: 'GET',
    url: '/api/enrollments/overdue-installments',
    access: 'staff',
    response: ZOverdueInstallmentList,
    handler: ({ ctx }) => queries.listOverdueInstallments(ctx, { limit: 1000 }),
  });
  route(app, deps, {
    method: 'GET',
    url: '/api/enrollments/student/:id',
    access: 'staff',
    response: ZEnrollmentList,
    params: ZIdParam,
    handler: ({ ctx, params }) => queries.listEnrollmentsWhere(ctx, { userId: params.id }),
  });
  route(app, deps, {
    method: 'GET',
    url: '/api/enrollments/course/:id',
    access: 'staff',
    response: ZEnrollmentList,
    params: ZIdParam,
    handler: ({ ctx, params }) => queries.listEnrollmentsWhere(ctx, { courseId: params.id }),
  });
  route(app, deps, {
    method: 'GET',
    url: '/api/enrollments/:id',
    access: 'staff',
    response: ZEnrollment,
    params: ZIdParam,
    handler: ({ ctx, params }) => queries.getEnrollment(ctx, params.id),
  });
  route(app, deps, {
    method: 'PUT',
    url: '/api/enrollments/:id',
    access: 'admin',
    response: ZEnrollment,
    params: ZIdParam,
    body: ZUpdateEnrollmentFields,
    handler: ({ ctx, params, body }) => service.updateEnrollment(ctx, { ...body, id: params.id }),
  });
  route(app, deps, {
    method: 'DELETE',
    url: '/api/enrollments/:id',
    access: 'admin',
    response: ZMessage,
    params: ZIdParam,
    body: ZDeleteEnrollmentFields,
    handler: ({ ctx, params, body }) => service.deleteEnrollment(ctx, { ...body, id: params.id }),
  });
  route(app, deps, {
    method: 'PUT',
    url: '/api/enrollments/:id/complete',
    access: 'admin',
    response: ZEnrollment,
    params: ZIdParam,
    handler: ({ ctx, params }) => service.completeEnrollment(ctx, params.id),
  });
  route(app, deps, {
    method: 'POST',
    url: '/api/enrollments/:id/pay-installment',
    access: 'admin',
    response: ZEnrollment,
    params: ZIdParam,
    body: ZPayInstallmentFields,
    handler: ({ ctx, params, body }) => service.payInstallment(ctx, { ...body, id: params.id }),
  });
  route(app, deps, {
    method: 'POST',
    url: '/api/enrollments/:id/pay-admission-fee',
    access: 'admin',
    response: ZEnrollment,
    params: ZIdParam,
    body: ZPayAdmissionFeeFields,
    handler: ({ ctx, params, body }) => service.payAdmissionFee(ctx, { ...body, id: params.id }),
  });
}
