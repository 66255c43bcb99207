import type { CreateFastifyContextOptions } from '@trpc/server/adapters/fastify';
import type { AppDeps } from '../deps';
import { clearSessionCookie, setSessionCookie } from '../http/auth-hook';

export function contextFactory(deps: AppDeps) {
  return ({ req, res }: CreateFastifyContextOptions) => ({
    deps,
    actor: req.actor ?? null,
    /** The client's address (from X-Forwarded-For only behind a proxy named by TRUST_PROXY). */
    clientIp: req.ip,
    setSession: (token: string, expiresAt: Date) => setSessionCookie(res, token, expiresAt),
    clearSession: () => clearSessionCookie(res),
  });
}

export type Context = Awaited<ReturnType<ReturnType<typeof contextFactory>>>;
