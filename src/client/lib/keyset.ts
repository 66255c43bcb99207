import type { QueryKey } from '@tanstack/react-query';
import { queryClient } from './trpc';

/** The same list input, whatever the order of its keys and with unset keys left out. */
function canonical(input: Record<string, unknown>): string {
  return JSON.stringify(
    Object.entries(input)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => a.localeCompare(b)),
  );
}

/**
 * Keyset paging (docs/performance.md#keyset-paging): page N of a list is asked for as "the rows
 * after page N-1's last row" when page N-1, with the same filters and order, is in the cache
 * (the usual case: the user pressed Next). The server then reads an index range instead of
 * skipping every earlier row, and a row inserted meanwhile neither repeats nor hides one. A page
 * reached otherwise (a typed URL, a jump) goes by its number. Route loaders and screens build the
 * input through the same function, so both ask for the same query.
 */
export function withCursor<I extends { page?: number; cursor?: string }>(input: I, listKey: QueryKey): I {
  const page = input.page ?? 1;
  if (page <= 1) return input;
  const { cursor: _ignored, ...rest } = input;
  const wanted = canonical({ ...rest, page: page - 1 });
  let best: { at: number; cursor: string } | undefined;
  for (const q of queryClient.getQueryCache().findAll({ queryKey: listKey })) {
    const key = q.queryKey[1] as { input?: Record<string, unknown> } | undefined;
    const { cursor: _c, ...other } = key?.input ?? {};
    const next = (q.state.data as { nextCursor?: string | null } | undefined)?.nextCursor;
    if (!next || canonical(other) !== wanted) continue;
    if (!best || q.state.dataUpdatedAt > best.at) best = { at: q.state.dataUpdatedAt, cursor: next };
  }
  return best ? { ...input, cursor: best.cursor } : input;
}
