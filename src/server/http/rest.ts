import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z, type ZodType } from 'zod';
import type { Actor } from '../auth/sessions';
import type { AppDeps, RequestMeta, ServiceContext } from '../deps';
import { AppError, fromZodError } from '../errors';
import { FORBIDDEN_MESSAGE, rolesFor, UNAUTHORIZED_MESSAGE, type Access } from './access';
import { requestMetaOf } from './request-meta';
import type { LimitName } from './rate-limits';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Every /api route declares its access; the route walk test reads it. */
    access?: Access;
  }
}

type Infer<S> = S extends ZodType ? z.infer<S> : undefined;

interface RouteDef<P, Q, B, A extends Access> {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  access: A;
  /** A per-client request limit (docs/security.md); `upload` counts only multipart requests. */
  rateLimit?: LimitName;
  params?: P;
  query?: Q;
  body?: B;
  handler: (args: {
    ctx: A extends 'public'
      ? { db: AppDeps['db']; actor: Actor | null; deps: AppDeps; request: RequestMeta }
      : ServiceContext;
    params: Infer<P>;
    query: Infer<Q>;
    body: Infer<B>;
    req: FastifyRequest;
    reply: FastifyReply;
  }) => Promise<unknown>;
}

/**
 * The schemas each documented path validates with, by `METHOD url` (the fuzz test generates its
 * requests from them). Paths that read their body themselves (multipart forms) have none here.
 */
export const restSchemas = new Map<string, { params?: ZodType; query?: ZodType; body?: ZodType }>();

function parse<S extends ZodType | undefined>(schema: S, value: unknown): Infer<S> {
  if (!schema) return undefined as Infer<S>;
  const result = schema.safeParse(value ?? {});
  if (!result.success) throw fromZodError(result.error);
  return result.data as Infer<S>;
}

/**
 * A documented /api path: checks the caller's role, validates params, query and body with zod,
 * then calls the handler (which only calls a service and shapes the answer).
 */
export function route<
  P extends ZodType | undefined,
  Q extends ZodType | undefined,
  B extends ZodType | undefined,
  A extends Access,
>(app: FastifyInstance, deps: AppDeps, def: RouteDef<P, Q, B, A>) {
  const roles = rolesFor(def.access);
  restSchemas.set(`${def.method} ${def.url}`, { params: def.params, query: def.query, body: def.body });
  app.route({
    method: def.method,
    url: def.url,
    config: { access: def.access },
    handler: async (req, reply) => {
      if (def.rateLimit && (def.rateLimit !== 'upload' || req.isMultipart()))
        await app.limiters[def.rateLimit](req, reply);
      const actor = req.actor;
      if (def.access !== 'public') {
        if (!actor) throw new AppError('UNAUTHORIZED', UNAUTHORIZED_MESSAGE);
        if (roles && !roles.includes(actor.role)) throw new AppError('FORBIDDEN', FORBIDDEN_MESSAGE);
      }
      const params = parse(def.params, req.params) as Infer<P>;
      const query = parse(def.query, req.query) as Infer<Q>;
      const body = parse(def.body, req.body) as Infer<B>;
      const ctx = { db: deps.db, actor, deps, request: requestMetaOf(req) } as Parameters<
        RouteDef<P, Q, B, A>['handler']
      >[0]['ctx'];
      const result = await def.handler({ ctx, params, query, body, req, reply });
      if (reply.sent) return reply;
      return result;
    },
  });
}

/** `{ id }` path params as uuids: a malformed id is simply not found. */
export const ZIdParam = z.object({ id: z.string() });
