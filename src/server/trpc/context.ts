import type { CreateFastifyContextOptions } from '@trpc/server/adapters/fastify';
import type { AppDeps } from '../deps';
import type { PublicContext } from '../domains/context';
import { DEVICE_COOKIE, setDeviceCookie } from '../auth/device-cookie';
import { clearSessionCookie, setSessionCookie } from '../http/auth-hook';
import { requestMetaOf } from '../http/request-meta';
import type { LimitName } from '../http/rate-limits';

/** How many calls a tRPC request carries: `/trpc/a.b,c.d?batch=1` is two. */
function callsIn(url: string): number {
  const pathPart = url.slice('/trpc/'.length).split('?')[0] ?? '';
  return pathPart.split(',').length;
}

export function contextFactory(deps: AppDeps) {
  return ({ req, res }: CreateFastifyContextOptions) => {
    const actor = req.actor ?? null;
    // The address, user agent and request id travel with every service call, for the audit trail.
    const svc: PublicContext = { db: deps.db, actor, deps, request: requestMetaOf(req) };
    return {
      deps,
      actor,
      /** What a public procedure passes to a service; authedProcedure replaces it with a ServiceContext. */
      svc,
      /** The client's address (from X-Forwarded-For only behind a proxy named by TRUST_PROXY). */
      clientIp: req.ip,
      callsInRequest: callsIn(req.url),
      /** Counts this request against a per-client limit; throws the 429 when it is used up. */
      limit: (name: LimitName) => req.server.limiters[name](req, res),
      setSession: (token: string, expiresAt: Date) => setSessionCookie(res, token, expiresAt),
      clearSession: () => clearSessionCookie(res),
      /** The sign-in's device cookie (src/server/auth/device-cookie.ts), read and renewed by auth.login. */
      deviceCookie: req.cookies[DEVICE_COOKIE],
      setDeviceCookie: (value: string) => setDeviceCookie(res, value),
    };
  };
}

export type Context = Awaited<ReturnType<ReturnType<typeof contextFactory>>>;
