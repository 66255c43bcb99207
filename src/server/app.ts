import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import { fastifyTRPCPlugin, type FastifyTRPCPluginOptions } from '@trpc/server/adapters/fastify';
import Fastify, { LogController, type FastifyError, type FastifyInstance } from 'fastify';
import type { AppDeps } from './deps';
import {
  AppError,
  fromBadInputDbError,
  HTTP_STATUS,
  isForeignKeyViolation,
  isUniqueViolation,
  propOf,
  retryAfterOf,
  unavailableError,
} from './errors';
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
import { trpcPlugin } from './trpc/http-handler';

const clientDir = path.join(projectRoot, 'dist/client');

declare module 'fastify' {
  interface FastifyInstance {
    /** Every /api route with the access it declares (the route walk test reads it). */
    apiRoutes: Array<{ method: string; url: string; access: string }>;
  }
}

export async function buildApp(
  deps: AppDeps,
  opts: {
    serveClient?: boolean;
    /** tRPC through the stock Fastify adapter alone (the test that compares both answers uses it). */
    stockTrpcAdapter?: boolean;
  } = {},
): Promise<FastifyInstance> {
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

  app.setErrorHandler((err: FastifyError | AppError, req, reply) => {
    if (err instanceof AppError) {
      const status = HTTP_STATUS[err.code];
      const retryAfter = retryAfterOf(err);
      if (retryAfter) reply.header('retry-after', String(retryAfter));
      if (status >= 500) req.log.error({ err }, 'request failed');
      return reply.status(status).send({ message: err.message, code: err.code, details: err.details });
    }
    const unavailable = unavailableError(err);
    if (unavailable) {
      req.log.warn({ err }, 'dependency unavailable: answered 503');
      return reply
        .status(503)
        .header('retry-after', '5')
        .send({ message: unavailable.message, code: unavailable.code });
    }
    const badInput = fromBadInputDbError(err);
    if (badInput) {
      // A schema let this value through: answer 400, and log it so the schema gets fixed.
      req.log.warn(
        { sqlstate: propOf(badInput.details, 'sqlstate'), url: req.routeOptions.url },
        'input refused by the database',
      );
      return reply.status(400).send({ message: badInput.message, code: badInput.code });
    }
    if (isUniqueViolation(err))
      return reply.status(409).send({ message: 'That record already exists.', code: 'CONFLICT' });
    if (isForeignKeyViolation(err))
      return reply.status(409).send({ message: 'That record is still referenced elsewhere.', code: 'CONFLICT' });
    const status = err.statusCode;
    if (status && status >= 400 && status < 500) {
      return reply.status(status).send({ message: err.message, code: err.code ?? 'BAD_REQUEST' });
    }
    req.log.error({ err }, 'unexpected error');
    return reply.status(500).send({ message: 'Something went wrong. Please try again.', code: 'INTERNAL' });
  });

  app.get('/api/health', { config: { access: 'public' } }, async () => ({ status: 'ok' }));

  const trpcOptions = {
    router: appRouter,
    createContext: contextFactory(deps),
    // Sign-in and password-reset calls refuse to share a batch (procedures.ts); this bounds the rest.
    maxBatchSize: 20,
    responseMeta({ errors }) {
      const retryAfter = Math.max(
        0,
        ...errors.map((e) => (e.cause instanceof AppError ? (retryAfterOf(e.cause) ?? 0) : 0)),
      );
      return retryAfter ? { headers: { 'retry-after': String(retryAfter) } } : {};
    },
    onError({ error, path: p }) {
      if (error.code === 'INTERNAL_SERVER_ERROR' && !(error.cause instanceof AppError)) {
        deps.log.error({ err: error.cause ?? error, path: p }, 'tRPC procedure failed');
      }
    },
  } satisfies FastifyTRPCPluginOptions<AppRouter>['trpcOptions'];
  // Plain calls are answered without Fetch objects; the rest by the stock adapter (trpc/http-handler.ts).
  if (opts.stockTrpcAdapter) await app.register(fastifyTRPCPlugin, { prefix: '/trpc', trpcOptions });
  else await app.register(trpcPlugin<AppRouter>, { prefix: '/trpc', trpcOptions });

  for (const register of restModules) register(app, deps);

  app.setNotFoundHandler((req, reply) => {
    if (req.url.startsWith('/api/') || req.url.startsWith('/trpc/') || req.method !== 'GET') {
      return reply.status(404).send({ message: 'Not found.', code: 'NOT_FOUND' });
    }
    if (opts.serveClient !== false && fs.existsSync(path.join(clientDir, 'index.html'))) {
      // SPA fallback: the client router shows its own not-found page.
      return reply.type('text/html').sendFile('index.html', clientDir, { cacheControl: false });
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
