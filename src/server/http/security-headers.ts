import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/**
 * Security headers on every answer: pages, assets, API answers and errors
 * (docs/security.md#headers-logs-and-uploads).
 *
 * The policy allows scripts from this origin only. Styles allow 'unsafe-inline' because the
 * chart component writes its colour variables into a <style> element and toasts inject theirs;
 * inline styles cannot run code, inline scripts could, and those stay forbidden.
 */
export async function registerSecurityHeaders(app: FastifyInstance) {
  await app.register(helmet, {
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
  app.addHook('onRequest', async (req, reply) => {
    // request.protocol reads X-Forwarded-Proto only from proxies TRUST_PROXY names.
    if (req.protocol === 'https') reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
  });
}
