import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import { fastifyTRPCPlugin, type FastifyTRPCPluginOptions } from '@trpc/server/adapters/fastify';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import type { AppDeps } from './deps';
import { AppError, answerFor, retryAfterOf } from './errors';
import { registerAuthHook } from './http/auth-hook';
import { isReadMethod } from './http/methods';
import { registerRateLimits } from './http/rate-limits';
import { registerRequestLog, requestLoggerOptions } from './http/request-log';
import { registerSecurityHeaders } from './http/security-headers';
import { trustProxyOf } from './config';
import { projectRoot } from './paths';
import { restModules } from './rest-modules';
import { appRouter, type AppRouter } from './trpc/root';
import { contextFactory } from './trpc/context';

const clientDir = path.join(projectRoot, 'dist/client');

declare module 'fastify' {
  interface FastifyInstance {
    /** Every /api route with the access it declares (the route walk test reads it). */
    apiRoutes: Array<{ method: string; url: string; access: string }>;
  }
}

export async function buildApp(deps: AppDeps, opts: { serveClient?: boolean } = {}): Promise<FastifyInstance> {
  const app = Fastify({
    // No logger of Fastify's own: `req.log` is made when used, and the request log is ours
    // (http/request-log.ts).
    ...requestLoggerOptions(deps.log),
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 1024 * 1024,
    // X-Forwarded-For is believed only from the proxies TRUST_PROXY names (docs/security.md).
    trustProxy: trustProxyOf(deps.config),
    // The /api ids and tRPC batch paths can be long; default is fine, but be explicit.
    routerOptions: { maxParamLength: 500 },
  });
  registerRequestLog(app, deps.log, deps.config.LOG_SLOW_MS);

  // Per-route, decided once when a route is added: a read route (GET, HEAD) has no body, so it
  // skips request decompression. Added before @fastify/compress so that it sees `decompress: false`.
  app.addHook('onRoute', (r) => {
    if ([r.method].flat().every(isReadMethod)) r.decompress ??= false;
  });

  // JSON only (and multipart on the picture paths, users.rest.ts): a text/plain or urlencoded write
  // is refused (CSRF, docs/product.md).
  app.removeContentTypeParser('text/plain');
  registerSecurityHeaders(app);
  // Brotli or gzip, as the client asks, for answers over 1 KiB. Quality 4 keeps on-the-fly brotli
  // cheap; the client's assets are compressed at quality 11 once, at build time (scripts/build.mjs).
  await app.register(compress, {
    threshold: 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
  });
  await app.register(cookie);
  registerAuthHook(app, deps);
  await registerRateLimits(app, deps);

  // Fail at start-up, not in production traffic, when an /api path forgets to declare its access.
  const apiRoutes: Array<{ method: string; url: string; access: string }> = [];
  app.decorate('apiRoutes', apiRoutes);
  app.addHook('onRoute', (r) => {
    if (!r.url.startsWith('/api/')) return;
    const access = r.config?.access;
    if (!access) throw new Error(`${String(r.method)} ${r.url} does not declare its access`);
    for (const method of [r.method].flat()) if (method !== 'HEAD') apiRoutes.push({ method, url: r.url, access });
  });

  // Every error answers through answerFor (errors.ts), the mapping tRPC's procedures use too.
  app.setErrorHandler((err, req, reply) => {
    const { error, status, code, log } = answerFor(err);
    if (log) req.log[log.level]({ ...log.fields, url: req.routeOptions.url }, log.msg);
    const retryAfter = retryAfterOf(error);
    if (retryAfter) reply.header('retry-after', String(retryAfter));
    return reply.status(status).send({ message: error.message, code, details: error.details, refusal: error.refusal });
  });

  app.get('/api/health', { config: { access: 'public' } }, async () => ({ status: 'ok' }));

  const trpcOptions = {
    router: appRouter,
    createContext: contextFactory(deps),
    // Sign-in and password-reset calls refuse to share a batch (procedures.ts); this bounds the rest:
    // a longer batch is answered 400 before any call runs.
    maxBatchSize: 20,
    // Queries by GET and mutations by POST only (tRPC's default, said here): any other method is
    // answered 405, so a page can never run a mutation through a link or an image.
    allowMethodOverride: false,
    responseMeta({ errors }) {
      const retryAfter = Math.max(
        0,
        ...errors.map((e) => (e.cause instanceof AppError ? (retryAfterOf(e.cause) ?? 0) : 0)),
      );
      return retryAfter ? { headers: { 'retry-after': String(retryAfter) } } : {};
    },
    onError({ error, path: p }) {
      // A procedure's own failure was mapped and logged inside it (init.ts); this logs the rest,
      // such as a context that could not be made.
      if (error.code === 'INTERNAL_SERVER_ERROR' && !(error.cause instanceof AppError)) {
        const { log } = answerFor(error.cause ?? error);
        if (log) deps.log[log.level]({ ...log.fields, path: p }, log.msg);
      }
    },
  } satisfies FastifyTRPCPluginOptions<AppRouter>['trpcOptions'];
  await app.register(fastifyTRPCPlugin, { prefix: '/trpc', trpcOptions });

  for (const register of restModules) register(app, deps);

  app.setNotFoundHandler((req, reply) => {
    if (req.url.startsWith('/api/') || req.url.startsWith('/trpc/') || req.method !== 'GET') {
      return reply.status(404).send({ message: 'Not found.', code: 'NOT_FOUND' });
    }
    // The portal (/portal and below) is its own page with its own, smaller bundle; every other
    // path is the back-office's.
    const page = isPortalPath(req.url) ? 'portal.html' : 'index.html';
    if (opts.serveClient !== false && fs.existsSync(path.join(clientDir, page))) {
      // SPA fallback: the client router shows its own not-found page.
      return reply.type('text/html').sendFile(page, clientDir, { cacheControl: false });
    }
    return reply.status(404).type('text/plain').send('The client is not built. Run `npm run build`.');
  });

  if (opts.serveClient !== false && fs.existsSync(clientDir)) {
    await app.register(fastifyStatic, {
      root: clientDir,
      wildcard: false,
      preCompressed: true,
      // Hashed assets never change; index.html must always be fresh.
      setHeaders(res, filePath) {
        res.header(
          'cache-control',
          filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  }

  return app;
}

/** `/portal`, `/portal/…` and `/portal?…`, not `/portals` or `/portal.html`. */
function isPortalPath(url: string): boolean {
  return /^\/portal(?:[/?#]|$)/.test(url);
}
