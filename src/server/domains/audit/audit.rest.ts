import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { sendAttachment } from '../../http/attachment';
import { route } from '../../http/rest';
import { ZAuditFilters, ZAuditRestQuery } from '@shared/schemas/audit';
import { ZAuditPage } from '@shared/schemas/audit.output';
import { exportAudit } from './audit.export';
import { listAuditPage } from './audit.queries';

/** docs/audit.md#reading-it: admins and superadmins only; managers and the rest get 403. */
export function registerAuditRest(app: FastifyInstance, deps: AppDeps) {
  route(app, deps, {
    method: 'GET',
    url: '/api/audit',
    access: 'admin',
    response: ZAuditPage,
    query: ZAuditRestQuery,
    handler: ({ ctx, query }) => listAuditPage(ctx, query),
  });
  route(app, deps, {
    method: 'GET',
    url: '/api/audit/export',
    access: 'admin',
    query: ZAuditFilters,
    handler: async ({ ctx, query, reply }) => {
      return sendAttachment(reply, await exportAudit(ctx, query));
    },
  });
}
