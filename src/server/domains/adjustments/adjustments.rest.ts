import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { route, ZIdParam } from '../../http/rest';
import {
  ZAdjustment,
  ZAdjustmentBody,
  ZAdjustmentList,
  ZAdjustmentPage,
  ZAdjustmentSettings,
  ZAdjustmentSettingsInput,
  ZDecideAdjustmentBody,
  ZListAdjustmentsInput,
  ZMoneyChanges,
  ZMoneyChangesInput,
  ZRevokeAdjustmentBody,
  ZScheme,
  ZSchemeInput,
  ZSchemeList,
  ZUpdateSchemeBody,
} from '@shared/schemas/adjustments';
import * as service from './adjustments.service';
import { createScheme, listSchemes, updateScheme } from './schemes.service';
import { moneyChanges } from './money-changes';

/** docs/payments.md#adjustments */
export function registerAdjustmentsRest(app: FastifyInstance, deps: AppDeps) {
  for (const [kind, base] of [
    ['enrollment', '/api/enrollments/:id/adjustments'],
    ['booking', '/api/bookings/booking/:id/adjustments'],
  ] as const) {
    const ref = (id: string) => (kind === 'enrollment' ? { enrollmentId: id } : { bookingId: id });
    route(app, deps, {
      method: 'POST',
      url: base,
      access: 'staff',
      params: ZIdParam,
      body: ZAdjustmentBody,
      response: ZAdjustment,
      status: 201,
      handler: ({ ctx, params, body }) => service.createAdjustment(ctx, { ...ref(params.id), body }),
    });
    route(app, deps, {
      method: 'GET',
      url: base,
      access: 'staff',
      params: ZIdParam,
      response: ZAdjustmentList,
      handler: ({ ctx, params }) => service.adjustmentsOf(ctx, ref(params.id)),
    });
  }
  route(app, deps, {
    method: 'GET',
    url: '/api/adjustments',
    access: 'staff',
    query: ZListAdjustmentsInput,
    response: ZAdjustmentPage,
    handler: ({ ctx, query }) => service.listAdjustments(ctx, query),
  });
  route(app, deps, {
    method: 'GET',
    url: '/api/adjustments/summary',
    access: 'staff',
    query: ZMoneyChangesInput,
    response: ZMoneyChanges,
    handler: ({ ctx, query }) => moneyChanges(ctx, query),
  });
  route(app, deps, {
    method: 'GET',
    url: '/api/adjustments/:id',
    access: 'staff',
    params: ZIdParam,
    response: ZAdjustment,
    handler: ({ ctx, params }) => service.getAdjustment(ctx, params.id),
  });
  route(app, deps, {
    method: 'POST',
    url: '/api/adjustments/:id/revoke',
    access: 'admin',
    params: ZIdParam,
    body: ZRevokeAdjustmentBody,
    response: ZAdjustment,
    handler: ({ ctx, params, body }) => service.revokeAdjustment(ctx, { id: params.id, ...body }),
  });
  route(app, deps, {
    method: 'POST',
    url: '/api/adjustments/:id/approve',
    access: 'admin',
    params: ZIdParam,
    body: ZDecideAdjustmentBody,
    response: ZAdjustment,
    handler: ({ ctx, params, body }) => service.approveAdjustment(ctx, { id: params.id, ...body }),
  });
  route(app, deps, {
    method: 'POST',
    url: '/api/adjustments/:id/reject',
    access: 'admin',
    params: ZIdParam,
    body: ZDecideAdjustmentBody,
    response: ZAdjustment,
    handler: ({ ctx, params, body }) => service.rejectAdjustment(ctx, { id: params.id, ...body }),
  });
  route(app, deps, {
    method: 'GET',
    url: '/api/settings/adjustments',
    access: 'staff',
    response: ZAdjustmentSettings,
    handler: ({ ctx }) => service.getAdjustmentSettings(ctx.db),
  });
  route(app, deps, {
    method: 'PUT',
    url: '/api/settings/adjustments',
    access: 'admin',
    body: ZAdjustmentSettingsInput,
    response: ZAdjustmentSettings,
    handler: ({ ctx, body }) => service.updateAdjustmentSettings(ctx, body),
  });
  route(app, deps, {
    method: 'GET',
    url: '/api/scholarship-schemes',
    access: 'staff',
    response: ZSchemeList,
    handler: ({ ctx }) => listSchemes(ctx),
  });
  route(app, deps, {
    method: 'POST',
    url: '/api/scholarship-schemes',
    access: 'admin',
    body: ZSchemeInput,
    response: ZScheme,
    status: 201,
    handler: ({ ctx, body }) => createScheme(ctx, body),
  });
  route(app, deps, {
    method: 'PUT',
    url: '/api/scholarship-schemes/:id',
    access: 'admin',
    params: ZIdParam,
    body: ZUpdateSchemeBody,
    response: ZScheme,
    handler: ({ ctx, params, body }) => updateScheme(ctx, { id: params.id, ...body }),
  });
}
