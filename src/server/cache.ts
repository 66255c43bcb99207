import { LRUCache } from 'lru-cache';

/*
 * One server's memory of answers it may give again (docs/performance.md#reused-reads): string
 * keys, a lifetime per use, a bound on what is kept (lru-cache drops the least recently used
 * entry), concurrent callers of one key sharing one computation, and invalidation by tag. Every
 * server (its AppDeps) has its own, so tests can run several servers in one process.
 *
 * Invalidation marks rather than deletes: `invalidate(tag)` records when the tag was last
 * invalidated, and an entry whose computation started before that is stale. So an answer computed
 * while a write ran (it may have read the old rows) is stale too, and a caller that may take an
 * answer from before a write (a list's later pages, which keep counting on page 1's total) still
 * finds it.
 */

/** When a computation started: the invalidation count then, and the clock. */
export interface Stamp {
  readonly count: number;
  readonly at: number;
}

interface Entry {
  value: unknown;
  since: Stamp;
  tags: readonly string[];
  ttlMs: number;
}

interface Computation extends Omit<Entry, 'value'> {
  promise: Promise<unknown>;
  /** Tags the answer adds (`tagsOf`), unknown while it runs. */
  moreTagsLater: boolean;
}

/** How a caller uses the cache for one key. */
export interface CacheUse<T> {
  /** How long an answer is kept, counted from when its computation started. 0 or less: not kept. */
  ttlMs: number;
  /** The oldest answer this caller takes (default `ttlMs`); computations under way count too. */
  maxAgeMs?: number;
  /** What invalidates the answer. */
  tags: readonly string[];
  /** Tags known from the answer only (a session's user). */
  tagsOf?: (value: T) => readonly string[];
  /** Also take an answer computed before one of its tags was invalidated. */
  evenIfInvalidated?: boolean;
  /** The share of the cache's `maxSize` the answer takes (default 1). */
  size?: number;
}

/**
 * How long an invalidation is remembered at least: longer than any computation runs, so that one
 * begun before it and kept after (`set` with its start's stamp) is still seen to be stale.
 */
const KEEP_INVALIDATIONS_MS = 60_000;

export class Cache {
  private readonly entries: LRUCache<string, Entry>;
  private readonly running = new Map<string, Computation>();
  /** Per tag, the invalidation count when it was last invalidated, and when (oldest first). */
  private readonly invalidated = new Map<string, Stamp>();
  private count = 0;
  /** The longest lifetime of anything kept: an invalidation older than that can matter to no entry. */
  private longestTtlMs = 0;

  constructor(maxSize: number) {
    this.entries = new LRUCache<string, Entry>({ maxSize });
  }

  /** Now, for a computation about to start (`set` takes it back). */
  stamp(): Stamp {
    return { count: this.count, at: Date.now() };
  }

  /**
   * The answer under `key` that `use` takes, else `compute()`'s (kept for the callers after).
   * Concurrent callers share one computation; a failed one is not kept.
   */
  read<T>(key: string, use: CacheUse<T>, compute: () => Promise<T>): Promise<T> {
    const now = Date.now();
    const maxAgeMs = use.maxAgeMs ?? use.ttlMs;
    const even = use.evenIfInvalidated ?? false;
    const hit = this.entries.get(key);
    if (hit && this.takes(hit, now, Math.min(maxAgeMs, hit.ttlMs), even)) return Promise.resolve(hit.value as T);
    // A computation under way is shared within the caller's age limit, whatever it will be kept for.
    const under = this.running.get(key);
    if (under && this.takes(under, now, maxAgeMs, even) && (!under.moreTagsLater || this.count === under.since.count))
      return under.promise as Promise<T>;

    const since = this.stamp();
    const promise = compute();
    const computation: Computation = {
      promise,
      since,
      tags: use.tags,
      ttlMs: use.ttlMs,
      moreTagsLater: use.tagsOf !== undefined,
    };
    this.running.set(key, computation);
    const done = () => {
      if (this.running.get(key) === computation) this.running.delete(key);
    };
    promise.then((value) => {
      done();
      const tags = use.tagsOf ? [...use.tags, ...use.tagsOf(value)] : use.tags;
      this.set(key, value, { ttlMs: use.ttlMs, tags, since, size: use.size });
    }, done);
    return promise;
  }

  /** The answer kept under `key`, when it is within its lifetime and none of its tags was invalidated since. */
  peek<T>(key: string): T | undefined {
    const hit = this.entries.get(key);
    return hit && this.takes(hit, Date.now(), hit.ttlMs, false) ? (hit.value as T) : undefined;
  }

  /**
   * Keeps `value` under `key` for `ttlMs` from `since` (when its computation started; default now),
   * unless a newer answer is kept already or one of its tags was invalidated since then.
   */
  set(
    key: string,
    value: unknown,
    opts: { ttlMs: number; tags: readonly string[]; since?: Stamp; size?: number },
  ): void {
    const since = opts.since ?? this.stamp();
    const left = opts.ttlMs - (Date.now() - since.at);
    // lru-cache reads a ttl of 0 as "forever": an answer with no time left is not kept at all.
    if (left <= 0) return;
    const entry: Entry = { value, since, tags: opts.tags, ttlMs: opts.ttlMs };
    if (!this.fresh(entry)) return;
    const kept = this.entries.peek(key);
    if (kept && kept.since.count > since.count) return;
    this.longestTtlMs = Math.max(this.longestTtlMs, opts.ttlMs);
    this.entries.set(key, entry, { ttl: Math.ceil(left), size: opts.size ?? 1 });
  }

  /** Every answer carrying one of `tags`, kept or being computed, is stale from now on. */
  invalidate(...tags: string[]): void {
    const stamp = { count: ++this.count, at: Date.now() };
    for (const tag of tags) {
      this.invalidated.delete(tag);
      this.invalidated.set(tag, stamp);
    }
    // Oldest first. An invalidation matters to what started before it and may still be given or
    // kept: nothing kept outlives the longest lifetime, and a computation under way is looked at.
    let horizon = stamp.at - Math.max(this.longestTtlMs, KEEP_INVALIDATIONS_MS);
    for (const c of this.running.values()) horizon = Math.min(horizon, c.since.at);
    for (const [tag, when] of this.invalidated) {
      if (when.at >= horizon) break;
      this.invalidated.delete(tag);
    }
  }

  private takes(entry: Omit<Entry, 'value'>, now: number, maxAgeMs: number, evenIfInvalidated: boolean): boolean {
    return now - entry.since.at < maxAgeMs && (evenIfInvalidated || this.fresh(entry));
  }

  private fresh(entry: Omit<Entry, 'value'>): boolean {
    for (const tag of entry.tags) if ((this.invalidated.get(tag)?.count ?? 0) > entry.since.count) return false;
    return true;
  }
}
