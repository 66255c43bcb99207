import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { readSession, sessionIdOf, type Actor } from '../auth/sessions';
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

  /** Signs the request in as `actor`; refuses a cookie-authenticated write from another site. */
  function signIn(req: FastifyRequest, actor: Actor, via: 'cookie' | 'bearer'): AppError | undefined {
    req.actor = actor;
    req.authVia = via;
    if (via === 'cookie' && !isReadMethod(req.method) && !sameOrigin(req, deps.config.APP_ORIGIN)) {
      return new AppError('FORBIDDEN', 'Cross-site request refused.');
    }
    return undefined;
  }

  // A callback hook: nearly every request comes with a session this server checked seconds ago
  // (the session cache), and those are signed in without a promise or a turn of the event loop;
  // only a miss waits for the database (docs/performance.md#session-cache).
  app.addHook('onRequest', (req, _reply, done) => {
    if (!req.url.startsWith('/api/') && !req.url.startsWith('/trpc/')) return done();
    const bearer = bearerToken(req);
    const token = bearer ?? req.cookies[SESSION_COOKIE];
    const id = token ? sessionIdOf(token) : null;
    if (!id) return done();
    const via = bearer ? 'bearer' : 'cookie';
    const cached = deps.sessionCache.get(id);
    if (cached) return done(signIn(req, cached, via));
    deps.sessionCache
      .lookUp(id, () => readSession(deps.db, id, deps.sessionPolicy, deps.sessionCache))
      .then(
        (actor) => done(actor ? signIn(req, actor, via) : undefined),
        (err: unknown) => done(err instanceof Error ? err : new Error(String(err))),
      );
  });
}
