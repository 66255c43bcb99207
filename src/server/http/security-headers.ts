import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

/**
 * Security headers on every answer: pages, assets, API answers and errors
 * (docs/security.md#security-headers).
 *
 * The policy allows scripts from this origin only. Styles allow 'unsafe-inline' because the
 * chart component writes its colour variables into a <style> element and toasts inject theirs;
 * inline styles cannot run code, inline scripts could, and those stay forbidden.
 */
const policy = helmet({
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
  },
  frameguard: { action: 'deny' },
  // Same-origin requests keep their Origin header, which the cookie-write check reads.
  referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  // HSTS only makes sense over https; sent below when the request came that way.
  strictTransportSecurity: false,
});

/**
 * Helmet's headers, worked out once: the policy depends on nothing in the request, and
 * @fastify/helmet rebuilt (parsed and validated) it on every request, 4 to 5 % of the CPU of a short
 * read (docs/performance.md#where-the-products-time-goes).
 */
function helmetHeaders(): Array<[string, string]> {
  const headers: Array<[string, string]> = [];
  const res = {
    setHeader: (name: string, value: string) => void headers.push([name, value]),
    removeHeader: () => {},
  } as unknown as ServerResponse;
  policy({} as never, res, (err?: unknown) => {
    if (err) throw err instanceof Error ? err : new Error('helmet refused the security header policy');
  });
  return headers;
}

/**
 * What /api and /trpc answer (JSON, pictures, report and receipt files, their errors) is never
 * shown as a page, so the page policy above means nothing there. Those answers carry the short
 * set OWASP's REST guidance gives for APIs instead: nothing may run in or load from them, no site
 * may frame them, the browser must not guess their type, another origin may not read them, and
 * no cache keeps them, since they hold clients' data and money. A path that may be kept (a
 * picture) sets its own Cache-Control. Five headers in place of eleven is also less for every
 * answer to write (docs/performance.md#where-the-products-time-goes).
 */
export const API_SECURITY_HEADERS = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'cross-origin-resource-policy': 'same-origin',
  'cache-control': 'no-store',
} as const;

const HSTS = 'max-age=31536000; includeSubDomains';

const isApiPath = (url: string) => url.startsWith('/api/') || url.startsWith('/trpc/');

export function registerSecurityHeaders(app: FastifyInstance) {
  const pageHeaders = Object.fromEntries(helmetHeaders());
  // A callback hook, not an async one: nothing here waits, and a promise per request is not free.
  app.addHook('onRequest', (req, reply, done) => {
    // Set on the reply, not on the raw answer: Node then writes them with the status line in one
    // step instead of checking and storing each one again (docs/performance.md#where-the-products-time-goes).
    reply.headers(isApiPath(req.url) ? API_SECURITY_HEADERS : pageHeaders);
    // request.protocol reads X-Forwarded-Proto only from proxies TRUST_PROXY names.
    if (req.protocol === 'https') reply.header('strict-transport-security', HSTS);
    done();
  });
}
