import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { validateSessionToken, type Actor } from '../auth/sessions';
import type { AppDeps } from '../deps';
import { AppError } from '../errors';
import { isReadMethod } from './methods';

export const SESSION_COOKIE = 'session';

declare module 'fastify' {
  interface FastifyRequest {
    actor: Actor | null;
    authVia: 'cookie' | 'bearer' | null;
  }
}

export function setSessionCookie(reply: FastifyReply, token: string, expiresAt: Date) {
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: 'auto',
    // The server's idle/absolute rules decide validity; the cookie lives as long as the hard limit.
    expires: expiresAt,
  });
}

export function clearSessionCookie(reply: FastifyReply) {
  reply.clearCookie(SESSION_COOKIE, { path: '/' });
}

function bearerToken(req: FastifyRequest): string | null {
  const h = req.headers.authorization;
  if (!h) return null;
  const m = /^Bearer\s+(\S+)$/i.exec(h);
  return m?.[1] ?? null;
}

/** A cookie-authenticated write must come from the app's own pages (CSRF defence). */
function sameOrigin(req: FastifyRequest, appOrigin: string | undefined): boolean {
  const origin = req.headers.origin ?? (req.headers.referer ? safeOrigin(req.headers.referer) : undefined);
  if (!origin) return false;
  if (appOrigin) return origin === new URL(appOrigin).origin;
  try {
    return new URL(origin).host === req.headers.host;
  } catch {
    return false;
  }
}

function safeOrigin(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

export function registerAuthHook(app: FastifyInstance, deps: AppDeps) {
  app.decorateRequest('actor', null);
  app.decorateRequest('authVia', null);
  app.addHook('onRequest', async (req) => {
    if (!req.url.startsWith('/api/') && !req.url.startsWith('/trpc/')) return;
    const bearer = bearerToken(req);
    const cookie = req.cookies[SESSION_COOKIE];
    const token = bearer ?? cookie;
    if (!token) return;
    const actor = await validateSessionToken(deps.db, token, deps.sessionPolicy, deps.sessionCache);
    if (!actor) return;
    req.actor = actor;
    req.authVia = bearer ? 'bearer' : 'cookie';
    if (req.authVia === 'cookie' && !isReadMethod(req.method) && !sameOrigin(req, deps.config.APP_ORIGIN)) {
      throw new AppError('FORBIDDEN', 'Cross-site request refused.');
    }
  });
}
