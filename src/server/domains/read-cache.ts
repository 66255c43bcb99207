import type { AppDeps } from '../deps';

/**
 * Reads a server reuses between writes (docs/performance.md#reused-reads): the money dashboard
 * (docs/payments.md#dashboard), the enrolment statistics (docs/courses.md#statistics) and the
 * lists' totals (keyset.ts `listTotal`). Each is an aggregate over many rows that every desk asks
 * for again and again, while nothing changed in between. An answer is reused for at most
 * DASHBOARD_CACHE_SECONDS, and only until this server handles any write: the person who made a
 * change sees it on the next read, and other servers' changes show within the lifetime. In the
 * embedded mode the lists' pages are reused too (`reusedPage`), until the data changes.
 *
 * `reuse` keeps the entries for `reusedRead`, `reusedPage` and `listTotal`; each says by its `ReuseRule`
 * how long an entry may be reused and whether a write ends it.
 */
interface Entry {
  /** When the computation started (Date.now()). */
  at: number;
  /** The write generation when it started. */
  generation: number;
  /** The one computation every caller within the rule shares. */
  value: Promise<unknown>;
}

/**
 * Reused answers, kept per server (its `AppDeps`): a second server in the same process keeps its
 * own. At most `maxEntries` per server; the one stored longest ago is forgotten first.
 */
export interface ReuseStore {
  readonly maxEntries: number;
  readonly byServer: WeakMap<AppDeps, Map<string, Entry>>;
}

export function reuseStore(maxEntries = Infinity): ReuseStore {
  return { maxEntries, byServer: new WeakMap() };
}

/** When a stored answer may be given again. */
export interface ReuseRule {
  /** For how long after its computation started (0 or less: never; the new one is still stored). */
  lifetimeMs: number;
  /** Only while this server has handled no write since its computation started. */
  followWrites: boolean;
}

/**
 * The answer stored under `key` when `rule` allows reusing it, else `compute()`'s, stored for the
 * callers after (whose own rule then decides). Concurrent callers share one computation; a failed
 * one is forgotten at once.
 */
export function reuse<T>(
  deps: AppDeps,
  store: ReuseStore,
  key: string,
  rule: ReuseRule,
  compute: () => Promise<T>,
): Promise<T> {
  let map = store.byServer.get(deps);
  if (!map) store.byServer.set(deps, (map = new Map<string, Entry>()));
  const now = Date.now();
  const generation = writeGeneration(deps);
  const hit = map.get(key);
  if (hit && now - hit.at < rule.lifetimeMs && (!rule.followWrites || hit.generation === generation)) {
    return hit.value as Promise<T>;
  }
  if (map.size >= store.maxEntries) {
    const oldest = map.keys().next();
    if (!oldest.done) map.delete(oldest.value);
  }
  const value = compute();
  const entry: Entry = { at: now, generation, value };
  map.delete(key);
  map.set(key, entry);
  // A stored answer is marked for the answer memo; a failed one is forgotten at once.
  value.then(rememberReused, () => {
    if (map.get(key) === entry) map.delete(key);
  });
  return value;
}

/** The answers stored for reuse: later callers get these very objects (http/answer-memo.ts). */
const reusedAnswers = new WeakSet<object>();

function rememberReused(value: unknown): void {
  if (typeof value === 'object' && value !== null) reusedAnswers.add(value);
}

/** Whether `value` is an answer stored for reuse, so it may be given to more than one caller. */
export function isReusedAnswer(value: object): boolean {
  return reusedAnswers.has(value);
}

const reads = reuseStore();
/** Pages kept per embedded server (`reusedPage`): a few hundred callers' pages of at most 100 rows. */
const pages = reuseStore(500);
const httpWrites = new WeakMap<AppDeps, number>();

/** Called by the HTTP layer around every request that may write (anything but GET, HEAD, OPTIONS). */
export function noteWrite(deps: AppDeps): void {
  httpWrites.set(deps, (httpWrites.get(deps) ?? 0) + 1);
  reads.byServer.get(deps)?.clear();
  pages.byServer.get(deps)?.clear();
}

/**
 * How many writes this server has seen: an answer computed under another number is stale. The
 * requests that may write, and in the embedded mode every change to the data, whoever made it
 * (an in-process job too): there the database counts them (db/changes.ts).
 */
export function writeGeneration(deps: AppDeps): number {
  return (httpWrites.get(deps) ?? 0) + (deps.dbHandle?.changes?.() ?? 0);
}

/** `compute()` once per key within the lifetime and the current write generation; concurrent
 *  callers share one computation, and a failed one is forgotten at once. */
export function reusedRead<T>(deps: AppDeps, key: string, compute: () => Promise<T>): Promise<T> {
  const lifetimeMs = deps.config.DASHBOARD_CACHE_SECONDS * 1000;
  if (lifetimeMs <= 0) return compute();
  return reuse(deps, reads, key, { lifetimeMs, followWrites: true }, compute);
}

/**
 * A list page's answer, reused in the embedded mode until the data changes
 * (docs/performance.md#embedded-reuse): there the server is the database's only user and counts
 * every change, so a page asked for again by the same caller with the same filters, order and
 * position is the answer it would compute. At most DASHBOARD_CACHE_SECONDS, for what changes with
 * the clock alone (a booking becomes overdue at midnight). On PostgreSQL, which other servers and
 * the worker write to as well, every page is read afresh. A page is known by the list, the caller
 * and everything in the request (the list's input, as its procedure checked it: the same request
 * writes the same text); it is looked for before any of the page's own work is done.
 */
export function reusedPage<T>(
  deps: AppDeps,
  page: { list: string; callerId: string; input: object },
  compute: () => Promise<T>,
): Promise<T> {
  const lifetimeMs = deps.config.DASHBOARD_CACHE_SECONDS * 1000;
  if (lifetimeMs <= 0 || !deps.dbHandle?.changes) return compute();
  const key = `${page.list}|${page.callerId}|${JSON.stringify(page.input)}`;
  return reuse(deps, pages, key, { lifetimeMs, followWrites: true }, compute);
}
