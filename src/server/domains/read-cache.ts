import type { AppDeps } from '../../deps';

/**
 * The dashboard's short-lived memory (docs/payments.md#dashboard). Its aggregates read every unpaid
 * installment and a year of payments, which at a million payments takes seconds, while the screen
 * asks again every 30 seconds from every desk. An answer is reused for DASHBOARD_CACHE_SECONDS per
 * branch filter, but only until this server handles any write: the clerk who records a payment sees
 * it on the next refresh, and other servers' writes show within the lifetime.
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
  generations.set(deps, (generations.get(deps) ?? 0) + 1);
  entries.get(deps)?.clear();
}

/** `compute()` once per key within the lifetime and the current write generation; concurrent
 *  callers share one computation, and a failed one is forgotten at once. */
export function cachedDashboard<T>(deps: AppDeps, key: string, compute: () => Promise<T>): Promise<T> {
  const ttlMs = deps.config.DASHBOARD_CACHE_SECONDS * 1000;
  if (ttlMs <= 0) return compute();
  let map = entries.get(deps);
  if (!map) entries.set(deps, (map = new Map<string, Entry<unknown>>()));
  const generation = generations.get(deps) ?? 0;
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
