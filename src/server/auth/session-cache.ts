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
  /** Look-ups under way, shared by the requests that need the same session meanwhile. */
  private readonly reading = new Map<string, Promise<Actor | null>>();
  /** Sessions ended so far: a look-up that saw a session end while it ran must not remember it. */
  private ended = 0;

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

  /**
   * One look-up of a session the cache does not hold, however many requests need it at once: when
   * the copy of a busy client's session runs out, its requests in flight wait for the same read
   * instead of each sending one.
   */
  lookUp(sessionId: string, read: () => Promise<Actor | null>): Promise<Actor | null> {
    const under = this.reading.get(sessionId);
    if (under) return under;
    const started = read().finally(() => {
      if (this.reading.get(sessionId) === started) this.reading.delete(sessionId);
    });
    this.reading.set(sessionId, started);
    return started;
  }

  /** Taken before reading a session from the database, and handed back to `set`. */
  ticket() {
    return this.ended;
  }

  /**
   * `expiresAt`: the session's own end, which a cached copy never outlives. `ticket`: when the
   * read began; a session ended since then (by this server) is not remembered, so a read that
   * found the row just before a sign-out deleted it cannot bring the session back.
   */
  set(actor: Actor, expiresAt: number, now = Date.now(), ticket = this.ended) {
    if (this.ttlMs <= 0 || ticket !== this.ended) return;
    // Map keeps insertion order: dropping the first key drops the oldest entry.
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.delete(actor.sessionId);
    this.entries.set(actor.sessionId, { actor, until: Math.min(now + this.ttlMs, expiresAt) });
  }

  // Forgetting also drops the look-ups under way, so a request that comes after the session ended
  // does not wait for (and get) the answer of a read that began before.
  forgetSession(sessionId: string) {
    this.ended++;
    this.entries.delete(sessionId);
    this.reading.delete(sessionId);
  }

  forgetUser(userId: string) {
    this.ended++;
    for (const [id, entry] of this.entries) if (entry.actor.id === userId) this.entries.delete(id);
    // A look-up under way does not say whose session it is: all are dropped (sessions end rarely).
    this.reading.clear();
  }
}
