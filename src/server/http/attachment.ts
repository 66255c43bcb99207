import type { FastifyInstance, FastifyReply } from 'fastify';
import type { z, ZodType } from 'zod';
import type { AppDeps } from '../deps';
import type { ServiceContext } from '../domains/context';
import { route } from './rest';

export interface Attachment {
  contentType: string;
  fileName: string;
  body: unknown;
  /** Sent as content-length when known up front (a stored file); a stream leaves it out. */
  size?: number;
}

/**
 * Sends a file to download. Never cached: every file carries money figures or a person's data,
 * and a shared browser or proxy must not keep it.
 */
export function sendAttachment(reply: FastifyReply, file: Attachment) {
  reply
    .header('content-type', file.contentType)
    .header('content-disposition', `attachment; filename="${file.fileName}"`)
    .header('cache-control', 'no-store');
  if (file.size !== undefined) reply.header('content-length', String(file.size));
  return reply.send(file.body);
}

/**
 * `GET <url>/excel` and `GET <url>/pdf` of a staff report, built by one function for both formats;
 * `params` for a url with an `:id` in it (a batch's register).
 */
export function reportFileRoutes<Q extends ZodType, P extends ZodType = z.ZodUndefined>(
  app: FastifyInstance,
  deps: AppDeps,
  def: {
    url: string;
    params?: P;
    query: Q;
    build: (
      ctx: ServiceContext,
      query: z.output<Q>,
      format: 'xlsx' | 'pdf',
      params: z.output<P>,
    ) => Promise<Attachment>;
  },
) {
  for (const [path, format] of [
    ['excel', 'xlsx'],
    ['pdf', 'pdf'],
  ] as const) {
    route(app, deps, {
      method: 'GET',
      url: `${def.url}/${path}`,
      access: 'staff',
      params: def.params,
      query: def.query,
      handler: async ({ ctx, params, query, reply }) =>
        sendAttachment(reply, await def.build(ctx, query, format, params)),
    });
  }
}
