import { Cache, type Stamp } from '../cache';
import type { Actor } from './sessions';

/**
 * A short-lived, per-process memory of validated sessions, so a busy client does not cost a
 * database round trip on every request (docs/performance.md#session-cache), on the server's cache
 * module (src/server/cache.ts) with a store of its own: a page of list answers never pushes a
 * session out.
 *
 * Correctness: the server that ends a session (sign-out, role change, password reset, user
 * deletion) invalidates it here at once; another server keeps trusting its copy for at most
 * `ttlMs` (configured by SESSION_CACHE_SECONDS, capped at 10 s). A zero ttl turns the cache off.
 */
const sessionTag = (sessionId: string) => `session|${sessionId}`;
const userTag = (userId: string) => `user|${userId}`;

export class SessionCache {
  private readonly cache: Cache;

  constructor(
    private readonly ttlMs: number,
    maxEntries = 10_000,
  ) {
    this.cache = new Cache(maxEntries);
  }

  get(sessionId: string): Actor | null {
    return this.cache.peek<Actor>(sessionTag(sessionId)) ?? null;
  }

  /**
   * One look-up of a session the cache does not hold, however many requests need it at once: when
   * the copy of a busy client's session runs out, its requests in flight wait for the same read
   * instead of each sending one. The read keeps what it finds itself (`set`, with the session's
   * own end); a request that comes after the session ended does not wait for (and get) the answer
   * of a read that began before.
   */
  lookUp(sessionId: string, read: () => Promise<Actor | null>): Promise<Actor | null> {
    return this.cache.read(
      `lookup|${sessionId}`,
      // Kept for no time, only shared while it runs. Whose session it is shows in its answer only,
      // so ending any session meanwhile stops newcomers from sharing it (the cache's `tagsOf`).
      {
        ttlMs: 0,
        maxAgeMs: Number.POSITIVE_INFINITY,
        tags: [sessionTag(sessionId)],
        tagsOf: (actor) => (actor ? [userTag(actor.id)] : []),
      },
      read,
    );
  }

  /** Taken before reading a session from the database, and handed back to `set`. */
  ticket(): Stamp {
    return this.cache.stamp();
  }

  /**
   * `expiresAt`: the session's own end, which a cached copy never outlives. `ticket`: when the
   * read began; a session of this user ended since then (by this server) is not remembered, so a
   * read that found the row just before a sign-out deleted it cannot bring the session back.
   */
  set(actor: Actor, expiresAt: number, now = Date.now(), ticket = this.cache.stamp()) {
    if (this.ttlMs <= 0) return;
    // The cache counts a lifetime from the ticket (the read's start); this one runs from `now`.
    const ttlMs = Math.min(this.ttlMs, expiresAt - now) + (now - ticket.at);
    this.cache.set(sessionTag(actor.sessionId), actor, {
      ttlMs,
      tags: [sessionTag(actor.sessionId), userTag(actor.id)],
      since: ticket,
    });
  }

  forgetSession(sessionId: string) {
    this.cache.invalidate(sessionTag(sessionId));
  }

  forgetUser(userId: string) {
    this.cache.invalidate(userTag(userId));
  }
}
