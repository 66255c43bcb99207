import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

/**
 * Security headers on every answer: pages, assets, API answers and errors
 * (docs/security.md#headers-logs-and-uploads).
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

export async function registerSecurityHeaders(app: FastifyInstance) {
  const headers = Object.fromEntries(helmetHeaders());
  app.addHook('onRequest', async (req, reply) => {
    // Set on the reply, not on the raw answer: Node then writes them with the status line in one
    // step instead of checking and storing each one again (docs/performance.md#where-the-products-time-goes).
    reply.headers(headers);
    // request.protocol reads X-Forwarded-Proto only from proxies TRUST_PROXY names.
    if (req.protocol === 'https') reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
  });
}
