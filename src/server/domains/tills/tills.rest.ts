import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { AppError } from '../../errors';
import { route, ZIdParam } from '../../http/rest';
import {
  ZCloseTillBody,
  ZListTillsInput,
  ZListTillsQuery,
  ZOpenTillInput,
  ZTill,
  ZTillList,
  ZTillSettings,
  ZTillSettingsInput,
} from '@shared/schemas/tills';
import { listTills } from './tills.read';
import { closeTill, getTill, getTillSettings, openTill, updateTillSettings } from './tills.service';

/** docs/payments.md#tills */
export function registerTillsRest(app: FastifyInstance, deps: AppDeps) {
  route(app, deps, {
    method: 'POST',
    url: '/api/tills',
    access: 'staff',
    body: ZOpenTillInput,
    response: ZTill,
    status: 201,
    handler: ({ ctx, body }) => openTill(ctx, body),
  });
  route(app, deps, {
    method: 'GET',
    url: '/api/tills',
    access: 'staff',
    query: ZListTillsQuery,
    response: ZTillList,
    handler: ({ ctx, query }) => {
      // The query strings through the tRPC input's schema, so both paths refuse the same things.
      const parsed = ZListTillsInput.safeParse({
        branchId: query.branchId,
        from: query.from,
        to: query.to,
        status: query.status || undefined,
        page: query.page,
        pageSize: query.limit,
      });
      if (!parsed.success) throw new AppError('BAD_REQUEST', parsed.error.issues[0]?.message ?? 'Invalid input.');
      return listTills(ctx, parsed.data);
    },
  });
  route(app, deps, {
    method: 'GET',
    url: '/api/tills/settings',
    access: 'staff',
    response: ZTillSettings,
    handler: ({ ctx }) => getTillSettings(ctx.db),
  });
  route(app, deps, {
    method: 'PUT',
    url: '/api/tills/settings',
    access: 'admin',
    body: ZTillSettingsInput,
    response: ZTillSettings,
    handler: ({ ctx, body }) => updateTillSettings(ctx, body),
  });
  route(app, deps, {
    method: 'GET',
    url: '/api/tills/:id',
    access: 'staff',
    params: ZIdParam,
    response: ZTill,
    handler: ({ ctx, params }) => getTill(ctx, params.id),
  });
  route(app, deps, {
    method: 'POST',
    url: '/api/tills/:id/close',
    access: 'staff',
    params: ZIdParam,
    body: ZCloseTillBody,
    response: ZTill,
    handler: ({ ctx, params, body }) => closeTill(ctx, { id: params.id, ...body }),
  });
}
