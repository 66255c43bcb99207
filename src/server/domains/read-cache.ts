import type { AppDeps } from '../deps';

/**
 * Reads a server reuses between writes (docs/performance.md#reused-reads): the money dashboard
 * (docs/payments.md#dashboard), the enrolment statistics (docs/courses.md#statistics) and the
 * lists' totals (keyset.ts `listTotal`). Each is an aggregate over many rows that every desk asks
 * for again and again, while nothing changed in between. An answer is reused for at most
 * DASHBOARD_CACHE_SECONDS, and only until this server handles any write: the person who made a
 * change sees it on the next read, and other servers' changes show within the lifetime.
 */
interface Entry<T> {
  at: number;
  generation: number;
  value: Promise<T>;
}

const entries = new WeakMap<AppDeps, Map<string, Entry<unknown>>>();
const generations = new WeakMap<AppDeps, number>();

/** Called by the HTTP layer around every request that may write (anything but GET, HEAD, OPTIONS). */
export function noteWrite(deps: AppDeps): void {
  generations.set(deps, writeGeneration(deps) + 1);
  entries.get(deps)?.clear();
}

/** How many writes this server has handled: an answer computed under another number is stale. */
export function writeGeneration(deps: AppDeps): number {
  return generations.get(deps) ?? 0;
}

/** `compute()` once per key within the lifetime and the current write generation; concurrent
 *  callers share one computation, and a failed one is forgotten at once. */
export function reusedRead<T>(deps: AppDeps, key: string, compute: () => Promise<T>): Promise<T> {
  const ttlMs = deps.config.DASHBOARD_CACHE_SECONDS * 1000;
  if (ttlMs <= 0) return compute();
  let map = entries.get(deps);
  if (!map) entries.set(deps, (map = new Map<string, Entry<unknown>>()));
  const generation = writeGeneration(deps);
  const hit = map.get(key) as Entry<T> | undefined;
  if (hit && hit.generation === generation && Date.now() - hit.at < ttlMs) return hit.value;
  const value = compute();
  const entry: Entry<T> = { at: Date.now(), generation, value };
  map.set(key, entry);
  value.catch(() => {
    if (map.get(key) === entry) map.delete(key);
  });
  return value;
}
