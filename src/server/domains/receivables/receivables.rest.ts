import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { reportFileRoutes } from '../../http/attachment';
import { route } from '../../http/rest';
import { ZReceivables, ZReceivablesFilters, ZReceivablesInput } from '@shared/schemas/receivables';
import { receivablesFile } from './receivables-files';
import { listReceivables } from './receivables.service';

/** GET /api/reports/receivables and its files (docs/payments.md#receivables); staff only. */
export function registerReceivablesRest(app: FastifyInstance, deps: AppDeps) {
  route(app, deps, {
    method: 'GET',
    url: '/api/reports/receivables',
    access: 'staff',
    query: ZReceivablesInput,
    response: ZReceivables,
    handler: ({ ctx, query }) => listReceivables(ctx, query),
  });
  reportFileRoutes(app, deps, { url: '/api/reports/receivables', query: ZReceivablesFilters, build: receivablesFile });
}
