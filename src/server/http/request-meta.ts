import type { FastifyRequest } from 'fastify';
import type { RequestMeta } from '../deps';

/** A user agent is the client's own text: kept, but bounded. */
const MAX_USER_AGENT = 512;

/** The caller's address (X-Forwarded-For only behind TRUST_PROXY), user agent and the log's request id. */
export function requestMetaOf(req: FastifyRequest): RequestMeta {
  const ua = req.headers['user-agent'];
  return {
    ip: req.ip,
    userAgent: typeof ua === 'string' && ua ? ua.slice(0, MAX_USER_AGENT) : null,
    requestId: String(req.id),
  };
}
