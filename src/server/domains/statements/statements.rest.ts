import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { sendAttachment } from '../../http/attachment';
import { route, ZIdParam } from '../../http/rest';
import { CONTENT_TYPES } from '../reports/reports.service';
import { ZStatement, ZStatementQueued, ZStatementRange } from '@shared/schemas/statements';
import * as service from './statements.service';

/** docs/users.md#statement: the statement, its PDF and its e-mail, for staff. */
export function registerStatementRest(app: FastifyInstance, deps: AppDeps) {
  route(app, deps, {
    method: 'GET',
    url: '/api/users/:id/statement',
    access: 'staff',
    params: ZIdParam,
    query: ZStatementRange,
    response: ZStatement,
    handler: ({ ctx, params, query }) => service.getStatement(ctx, { userId: params.id, ...query }),
  });
  route(app, deps, {
    method: 'GET',
    url: '/api/users/:id/statement/pdf',
    access: 'staff',
    params: ZIdParam,
    query: ZStatementRange,
    handler: async ({ ctx, params, query, reply }) => {
      const { fileName, pdf } = await service.statementPdf(ctx, { userId: params.id, ...query });
      return sendAttachment(reply, { contentType: CONTENT_TYPES.pdf, fileName, body: pdf });
    },
  });
  route(app, deps, {
    method: 'POST',
    url: '/api/users/:id/statement/email',
    access: 'staff',
    params: ZIdParam,
    body: ZStatementRange,
    response: ZStatementQueued,
    status: 202,
    handler: ({ ctx, params, body }) => service.emailStatement(ctx, { userId: params.id, ...body }),
  });
}
