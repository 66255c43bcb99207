import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
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
  for (const [path, format] of [
    ['excel', 'xlsx'],
    ['pdf', 'pdf'],
  ] as const) {
    route(app, deps, {
      method: 'GET',
      url: `/api/reports/receivables/${path}`,
      access: 'staff',
      query: ZReceivablesFilters,
      handler: async ({ ctx, query, reply }) => {
        const f = await receivablesFile(ctx, query, format);
        return reply
          .header('content-type', f.contentType)
          .header('content-disposition', `attachment; filename="${f.fileName}"`)
          .header('cache-control', 'no-store')
          .send(f.body);
      },
    });
  }
}
