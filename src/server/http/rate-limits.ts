import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import { throttled } from '../auth/throttle';
import type { AppDeps } from '../deps';

/**
 * Requests per client address on the paths an attacker would hammer (docs/security.md#rate-limits-and-lock-outs).
 * These bound traffic; the failure limits that protect passwords and codes are counted in the
 * database by the services (src/server/auth/throttle.ts). Sign-in is generous on purpose: a whole
 * office signs in from one address each morning.
 */
export const REQUEST_LIMITS = {
  signIn: {
    max: 600,
    windowMs: 60 * 60_000,
    message: 'Too many sign-in requests from this network. Please try again later.',
  },
  passwordReset: {
    max: 20,
    windowMs: 60 * 60_000,
    message: 'Too many password reset requests from this network. Please try again later.',
  },
  otp: { max: 60, windowMs: 60 * 60_000, message: 'Too many code checks from this network. Please try again later.' },
  /** docs/portal.md#sign-in-by-code: asking for sign-in codes, per client. */
  portalCode: {
    max: 20,
    windowMs: 60 * 60_000,
    message: 'Too many sign-in code requests from this network. Please try again later.',
  },
  /** docs/portal.md#invitations: accepting invitation links, per client. */
  invitation: {
    max: 20,
    windowMs: 60 * 60_000,
    message: 'Too many invitation attempts from this network. Please try again later.',
  },
  /**
   * docs/messages.md#opting-out: the signed opt-out and opt-in links, per client. Generous, since
   * a mail provider's link scanner may open many people's links from one address.
   */
  optOut: {
    max: 60,
    windowMs: 60 * 60_000,
    message: 'Too many opt-out requests from this network. Please try again later.',
  },
  upload: {
    max: 120,
    windowMs: 60 * 60_000,
    message: 'Too many picture uploads from this network. Please try again later.',
  },
} as const;

export type LimitName = keyof typeof REQUEST_LIMITS;
type Limiter = (req: FastifyRequest, reply: FastifyReply) => Promise<void>;

declare module 'fastify' {
  interface FastifyInstance {
    /** Per-client request limits by name; routes and procedures call the one they need. */
    limiters: Record<LimitName, Limiter>;
  }
}

/**
 * With REDIS_URL the counts live in Redis, so every server shares them; otherwise in this
 * process's memory (the embedded mode is one process). If Redis cannot be reached the request is
 * let through: the database-backed failure limits still hold.
 */
export async function registerRateLimits(app: FastifyInstance, deps: AppDeps) {
  const redis = deps.config.REDIS_URL
    ? new Redis(deps.config.REDIS_URL, {
        connectTimeout: 1000,
        maxRetriesPerRequest: 1,
        enableOfflineQueue: false,
        lazyConnect: false,
      })
    : undefined;
  redis?.on('error', (err) => deps.log.debug({ err }, 'rate-limit store unavailable'));
  if (redis) app.addHook('onClose', async () => void (await redis.quit().catch(() => undefined)));

  await app.register(rateLimit, { global: false, redis, skipOnError: true, nameSpace: 'backoffice-rl:' });

  const limiter = (name: LimitName): Limiter => {
    const limit = REQUEST_LIMITS[name];
    const hook = app.rateLimit({
      max: limit.max,
      timeWindow: limit.windowMs,
      keyGenerator: (req) => `${name}:${req.ip}`,
      errorResponseBuilder: (_req, ctx) => throttled(limit.message, ctx.ttl / 1000),
    });
    return async (req, reply) => {
      await hook.call(app, req, reply);
    };
  };
  const limiters: Record<LimitName, Limiter> = {
    signIn: limiter('signIn'),
    passwordReset: limiter('passwordReset'),
    otp: limiter('otp'),
    upload: limiter('upload'),
    portalCode: limiter('portalCode'),
    invitation: limiter('invitation'),
    optOut: limiter('optOut'),
  };
  app.decorate('limiters', limiters);
}
