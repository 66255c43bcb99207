import { Cache } from '../cache';
import type { AppDeps } from '../deps';

/**
 * Reads a server reuses between writes (docs/performance.md#reused-reads): the money dashboard
 * (docs/payments.md#dashboard), the enrolment statistics (docs/courses.md#statistics) and the
 * lists' totals (keyset.ts `listTotal`). Each is an aggregate over many rows that every desk asks
 * for again and again, while nothing changed in between. An answer is reused for at most
 * DASHBOARD_CACHE_SECONDS, and only until this server writes: every service that changes data
 * calls `invalidateReads` once it has committed, so the person who made a change sees it on the
 * next read; other servers' changes (and the worker's) show within the lifetime. In the embedded
 * mode the lists' pages are reused too (`reusedPage`).
 *
 * The reads are aggregates over several domains (a user's deletion changes the enrolment
 * statistics, a payment the dashboard and the lists' sums): a write invalidates them all.
 */

/** The tag of every reused read. */
const READS = 'reads';

/** What one server keeps: a few reads, totals of up to a few thousand callers' filters, the pages. */
export function readCache(): Cache {
  return new Cache(4_000);
}

/** Called by a service after it wrote (committed), and by a job that changed data. */
export function invalidateReads(deps: Pick<AppDeps, 'cache'>): void {
  deps.cache.invalidate(READS);
}

/**
 * `write`'s answer, the reads forgotten once it is done: a service's transaction, say. Also when
 * it failed: a failed write changed nothing, and forgetting costs one recomputation at most.
 */
export async function afterWrite<T>(deps: Pick<AppDeps, 'cache'>, write: Promise<T>): Promise<T> {
  try {
    return await write;
  } finally {
    invalidateReads(deps);
  }
}

/** `compute()` once per key within the lifetime and until the next write; concurrent callers
 *  share one computation, and a failed one is forgotten at once. */
export function reusedRead<T>(deps: AppDeps, key: string, compute: () => Promise<T>): Promise<T> {
  const ttlMs = deps.config.DASHBOARD_CACHE_SECONDS * 1000;
  if (ttlMs <= 0) return compute();
  return deps.cache.read(`read|${key}`, { ttlMs, tags: [READS] }, compute);
}

/** How long a count is reused by the pages with a cursor. */
const TOTAL_TTL_MS = 30_000;

/**
 * A list's total (keyset.ts `listTotal`): pages with a cursor reuse it for 30 seconds whatever is
 * written; page 1 (no cursor) within DASHBOARD_CACHE_SECONDS and until the next write.
 */
export function reusedTotal<T>(deps: AppDeps, key: string, withCursor: boolean, count: () => Promise<T>): Promise<T> {
  const maxAgeMs = withCursor ? TOTAL_TTL_MS : Math.min(TOTAL_TTL_MS, deps.config.DASHBOARD_CACHE_SECONDS * 1000);
  return deps.cache.read(
    `total|${key}`,
    { ttlMs: TOTAL_TTL_MS, maxAgeMs, tags: [READS], evenIfInvalidated: withCursor },
    count,
  );
}

/** A kept page counts as this many reads or totals: at most 500 pages at once. */
const PAGE_SIZE = 8;

/**
 * A list page's answer, reused in the embedded mode until the next write
 * (docs/performance.md#embedded-reuse): there the server is the database's only user, and its
 * services and in-process jobs invalidate the reads whenever they change data, so a page asked
 * for again by the same caller with the same filters, order and position is the answer it would
 * compute. At most DASHBOARD_CACHE_SECONDS, for what changes with the clock alone (a booking
 * becomes overdue at midnight). On PostgreSQL, which other servers and the worker write to as well,
 * every page is read afresh. A page is known by the list, the caller and everything in the request
 * (the list's input, as its procedure checked it: the same request writes the same text); it is
 * looked for before any of the page's own work is done.
 */
export function reusedPage<T>(
  deps: AppDeps,
  page: { list: string; callerId: string; input: object },
  compute: () => Promise<T>,
): Promise<T> {
  const ttlMs = deps.config.DASHBOARD_CACHE_SECONDS * 1000;
  if (ttlMs <= 0 || deps.dbHandle.kind !== 'pglite') return compute();
  const key = `page|${page.list}|${page.callerId}|${JSON.stringify(page.input)}`;
  return deps.cache.read(key, { ttlMs, tags: [READS], size: PAGE_SIZE }, compute);
}
