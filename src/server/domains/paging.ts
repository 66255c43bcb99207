import type { SQL } from 'drizzle-orm';
import type { PgSelect } from 'drizzle-orm/pg-core';

export function offsetOf(page: number, pageSize: number) {
  return (page - 1) * pageSize;
}

/**
 * A page by number of a small list (branches, courses, treatments): `rows` (a `$dynamic()` select
 * with its filter) in `order`, cut to the page, and the count of every row the filter matches.
 * Not keysetList({ keyset: null }), which reuses its total per caller and answers nextCursor.
 */
export async function numberedPage<Q extends PgSelect, I>(
  input: { page: number; pageSize: number },
  rows: Q,
  order: SQL[],
  count: Promise<Array<{ n: number }>>,
  toItem: (row: Awaited<Q>[number]) => I,
) {
  const [page, [total]] = await Promise.all([
    rows
      .orderBy(...order)
      .limit(input.pageSize)
      .offset(offsetOf(input.page, input.pageSize)),
    count,
  ]);
  return { items: page.map((row) => toItem(row)), total: total?.n ?? 0, page: input.page, pageSize: input.pageSize };
}
