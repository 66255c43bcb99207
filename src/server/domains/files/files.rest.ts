import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { route, ZIdParam } from '../../http/rest';
import * as service from './files.service';

export function registerFilesRest(app: FastifyInstance, deps: AppDeps) {
  route(app, deps, {
    method: 'GET',
    url: '/api/files/:id',
    access: 'authed',
    params: ZIdParam,
    handler: async ({ ctx, params, reply }) => {
      const file = await service.getFile(ctx.db, params.id);
      // A file row never changes (a new upload is a new id), so the browser may keep it for good;
      // private because only signed-in users may read it.
      reply
        .header('content-type', file.contentType)
        .header('content-length', String(file.byteSize))
        .header('cache-control', 'private, max-age=31536000, immutable')
        .header('x-content-type-options', 'nosniff')
        .header('content-disposition', 'inline');
      return reply.send(file.data);
    },
  });
}
