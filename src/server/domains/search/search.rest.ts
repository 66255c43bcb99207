import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { route } from '../../http/rest';
import { ZGlobalSearchInput, ZSearchAnswer } from '@shared/schemas/search';
import * as service from './search.service';

export function registerSearchRest(app: FastifyInstance, deps: AppDeps) {
  route(app, deps, {
    method: 'GET',
    url: '/api/search',
    access: 'staff',
    query: ZGlobalSearchInput,
    response: ZSearchAnswer,
    handler: ({ ctx, query }) => service.globalSearch(ctx, query),
  });
}
