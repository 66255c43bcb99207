import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z, type ZodType } from 'zod';
import type { Actor } from '../auth/sessions';
import type { AppDeps, RequestMeta } from '../deps';
import type { PublicContext, ServiceContext } from '../domains/context';
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

/** What a handler receives: anyone may call a public path; the others have a signed-in actor. */
type ContextFor<A extends Access> = A extends 'public' ? PublicContext : ServiceContext;

interface RouteDef<P, Q, B, A extends Access, R> {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  access: A;
  /** A per-client request limit (docs/security.md); `upload` counts only multipart requests. */
  rateLimit?: LimitName;
  params?: P;
  query?: Q;
  body?: B;
  /**
   * The answer's contract (the schema the tRPC procedure declares as its output, where there is
   * one): the handler's result is parsed with it before it is sent, so a field the contract does
   * not name never leaves the server.
   */
  response?: ZodType<unknown, R>;
  /** The status of a successful answer when it is not 200 (201 created, 202 accepted). */
  status?: 201 | 202;
  handler: (args: {
    ctx: ContextFor<A>;
    params: z.output<P>;
    query: z.output<Q>;
    body: z.output<B>;
    req: FastifyRequest;
    reply: FastifyReply;
  }) => Promise<R>;
}

/**
 * The schemas each documented path validates with, by `METHOD url` (the fuzz test generates its
 * requests from them). Paths that read their body themselves (multipart forms) have none here.
 */
export const restSchemas = new Map<string, { params?: ZodType; query?: ZodType; body?: ZodType }>();

/**
 * A path without a schema for a part has `z.ZodUndefined` as that part's type (route()'s
 * defaults), so the handler sees `undefined` there, which is what it gets.
 */
function parse<S extends ZodType>(schema: S | undefined, value: unknown): z.output<S> {
  if (!schema) return undefined as z.output<S>;
  const result = schema.safeParse(value ?? {});
  if (!result.success) throw fromZodError(result.error);
  return result.data;
}

function signedIn(deps: AppDeps, actor: Actor | null, request: RequestMeta): ServiceContext {
  if (!actor) throw new AppError('UNAUTHORIZED', UNAUTHORIZED_MESSAGE);
  return { db: deps.db, actor, deps, request };
}

/**
 * The context each kind of path hands its handler (the role check comes first, in route()), with
 * the address, user agent and request id that travel with every service call for the audit trail.
 */
const contextFor: {
  [K in Access]: (deps: AppDeps, actor: Actor | null, request: RequestMeta) => ContextFor<K>;
} = {
  public: (deps, actor, request) => ({ db: deps.db, actor, deps, request }),
  authed: signedIn,
  staff: signedIn,
  admin: signedIn,
};

/**
 * A documented /api path: checks the caller's role, validates params, query and body with zod,
 * then calls the handler (which only calls a service and shapes the answer), and holds the
 * answer to its declared `response` contract.
 */
export function route<
  P extends ZodType = z.ZodUndefined,
  Q extends ZodType = z.ZodUndefined,
  B extends ZodType = z.ZodUndefined,
  A extends Access = Access,
  R = unknown,
>(app: FastifyInstance, deps: AppDeps, def: RouteDef<P, Q, B, A, R>) {
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
      const params = parse(def.params, req.params);
      const query = parse(def.query, req.query);
      const body = parse(def.body, req.body);
      const ctx = contextFor[def.access](deps, actor, requestMetaOf(req));
      const result = await def.handler({ ctx, params, query, body, req, reply });
      if (reply.sent) return reply;
      if (def.status) reply.status(def.status);
      if (!def.response) return result;
      try {
        return def.response.parse(result);
      } catch (cause) {
        // A server fault, not the caller's: answered 500 and logged by the error handler.
        throw new Error(`The answer of ${def.method} ${def.url} does not match its contract.`, { cause });
      }
    },
  });
}

/** `{ id }` path params as uuids: a malformed id is simply not found. */
export const ZIdParam = z.object({ id: z.string() });
