import type { Actor } from './sessions';

/**
 * A short-lived, per-process memory of validated sessions, so a busy client does not cost a
 * database round trip on every request (docs/performance.md#session-cache).
 *
 * Correctness: the server that ends a session (sign-out, role change, password reset, user
 * deletion) evicts it here at once; another server keeps trusting its copy for at most `ttlMs`
 * (configured by SESSION_CACHE_SECONDS, capped at 10 s). A zero ttl turns the cache off.
 */
export class SessionCache {
  private readonly entries = new Map<string, { actor: Actor; until: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  get(sessionId: string, now = Date.now()): Actor | null {
    const hit = this.entries.get(sessionId);
    if (!hit) return null;
    if (hit.until <= now) {
      this.entries.delete(sessionId);
      return null;
    }
    return hit.actor;
  }

  /** `expiresAt`: the session's own end, which a cached copy never outlives. */
  set(actor: Actor, expiresAt: number, now = Date.now()) {
    if (this.ttlMs <= 0) return;
    // Map keeps insertion order: dropping the first key drops the oldest entry.
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.delete(actor.sessionId);
    this.entries.set(actor.sessionId, { actor, until: Math.min(now + this.ttlMs, expiresAt) });
  }

  forgetSession(sessionId: string) {
    this.entries.delete(sessionId);
  }

  forgetUser(userId: string) {
    for (const [id, entry] of this.entries) if (entry.actor.id === userId) this.entries.delete(id);
  }
}
