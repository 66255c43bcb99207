import { eq, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgSelect, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client';
import { preparedOn } from '../db/prepared';
import type { AppDeps } from '../deps';
import { offsetOf } from './paging';
import { reusedTotal } from './read-cache';

/*
 * Keyset ("cursor") paging for the screens' lists (docs/performance.md#keyset-paging). A page
 * answers `nextCursor`, naming its last row and the order it was read in; sent back with the next
 * page number, the next page is "the rows after that row" (an index range) instead of "skip
 * (page - 1) × size rows" (a scan of every earlier row). A cursor whose order does not match the
 * request's, or whose row is gone, falls back to the page number: the answer is still that page.
 */

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

/** The cursor after `rows` (null when the page was not full: nothing follows). */
export function nextCursorOf(order: string, rows: ReadonlyArray<{ id: string }>, pageSize: number): string | null {
  const last = rows.at(-1);
  return last && rows.length === pageSize ? `${order}~${last.id}` : null;
}

/** The row id a cursor names, if it was made for this order. */
export function cursorRowId(cursor: string | undefined, order: string): string | null {
  if (!cursor) return null;
  const m = new RegExp(`^(.*)~(${UUID})$`, 'i').exec(cursor);
  return m && m[1] === order ? m[2]! : null;
}

export interface KeysetSpec {
  /** sortBy:sortDir, the order the cursor belongs to. */
  order: string;
  cursor?: string;
  page: number;
  pageSize: number;
  sortDir: 'asc' | 'desc';
  /** The sort key, a column or an expression over the list's own joins. */
  sortKey: AnyPgColumn | SQL;
  /** True when `sortKey` is a plain column: the bound `sortKey >= / <= value` is then an index range. */
  plainColumn: boolean;
  id: AnyPgColumn;
  /** How ties on the sort key are ordered by id. */
  idDir: 'asc' | 'desc';
  /** The sort key of the cursor's row as text, or null when the row is gone (one look-up by id). */
  sortValueOf: (db: Db, id: string) => Promise<string | null | undefined>;
}

/** Where a page starts: after the cursor's row (its sort value as text, and its id), or at an offset. */
export interface PageStart {
  /** "After the cursor's row" as a condition; absent when the page starts at `offset`. */
  after?: SQL;
  offset: number;
}

type Bound = Pick<KeysetSpec, 'sortDir' | 'idDir' | 'sortKey' | 'id' | 'plainColumn'>;

/**
 * "After the row whose sort key is `value` and id is `id`", in the spec's order. The value travels
 * as text and PostgreSQL reads it as the key's own type: no rounding of timestamps' microseconds
 * through a JavaScript Date.
 */
function afterCondition(k: Bound, value: unknown, id: unknown): SQL {
  const beyond = k.sortDir === 'asc' ? sql`>` : sql`<`;
  const idBeyond = k.idDir === 'asc' ? sql`>` : sql`<`;
  const v = sql`${value}`;
  if (k.sortDir === k.idDir) return sql`(${k.sortKey}, ${k.id}) ${beyond} (${v}, ${id})`;
  const tie = sql`(${k.sortKey} ${beyond} ${v} or (${k.sortKey} = ${v} and ${k.id} ${idBeyond} ${id}))`;
  const bound = k.sortDir === 'asc' ? sql`${k.sortKey} >= ${v}` : sql`${k.sortKey} <= ${v}`;
  return k.plainColumn ? sql`${bound} and ${tie}` : tie;
}

/**
 * Where the page starts: a condition "after the cursor's row" (and no offset), or the offset of
 * the page number when there is no usable cursor.
 */
export async function pageStart(db: Db, k: KeysetSpec): Promise<PageStart> {
  const fallback = { offset: offsetOf(k.page, k.pageSize) };
  const rowId = cursorRowId(k.cursor, k.order);
  if (!rowId) return fallback;
  const value = await k.sortValueOf(db, rowId);
  if (value === null || value === undefined) return fallback;
  return { after: afterCondition(k, value, rowId), offset: 0 };
}

/** `sortValueOf` for a sort key read from the list's own table: one look-up by id. */
export function sortValueIn(table: PgTable, sortKey: AnyPgColumn | SQL, id: AnyPgColumn): KeysetSpec['sortValueOf'] {
  return async (db, rowId) =>
    (
      await db
        .select({ v: sql<string | null>`${sortKey}::text` })
        .from(table)
        .where(eq(id, rowId))
    )[0]?.v;
}

/**
 * The prepared statement's stand-ins for a page's values: a placeholder for each value that is set
 * (not undefined, null or empty), so a filter is in the statement exactly when its value is given.
 */
export type Slots<V> = {
  [K in keyof V]: [Extract<V[K], null | undefined>] extends [never] ? Placeholder : Placeholder | undefined;
};

const isSet = (v: unknown) => v !== undefined && v !== null && v !== '';

/**
 * A page's rows, in `order`. A page without a search and without a cursor (a screen's first look,
 * a filter, a page number) runs a statement built once per shape (db/prepared.ts): `prepared` is
 * the page's select and filters over `slots`, the placeholders `values` fills (`limit` and
 * `offset` are given here). The shape, and so the statement's name, follows from the list and its
 * order (`statement`) and from which values are set, or null. A search, whose conditions are built
 * from its text, or a cursor's page runs `plain`, built for the call. Both are drizzle's dynamic
 * selects (`.$dynamic()`).
 */
export function pageRows<T extends PgSelect, V extends Record<string, unknown>>(
  db: Db,
  start: PageStart,
  page: {
    /** The list and its order (`users createdAt desc`); null when the page has a search. */
    statement: string | null;
    pageSize: number;
    order: (AnyPgColumn | SQL)[];
    /** The order over the slots, when it has values of its own (the prepared statement's). */
    preparedOrder?: (slots: Slots<V>) => (AnyPgColumn | SQL)[];
    plain: (after: SQL | undefined) => T;
    prepared: (db: Db, slots: Slots<V>) => T;
    values: V;
  },
): Promise<T['_']['result']> {
  const { statement, order } = page;
  if (statement === null || start.after)
    return Promise.resolve(
      page
        .plain(start.after)
        .orderBy(...order)
        .limit(page.pageSize)
        .offset(start.offset),
    );
  const entries = Object.entries(page.values);
  const given = entries.map(([k, v]) => (isSet(v) ? k : v === null ? `${k}=null` : '')).filter(Boolean);
  const name = `${statement} [${given.join(' ')}]`;
  const P = sql.placeholder;
  const prepared = preparedOn(db, name, (d) => {
    const slots = Object.fromEntries(entries.map(([k, v]) => [k, isSet(v) ? P(k) : undefined])) as Slots<V>;
    return page
      .prepared(d, slots)
      .orderBy(...(page.preparedOrder?.(slots) ?? order))
      .limit(P('limit'))
      .offset(P('offset'))
      .prepare(name);
  });
  return prepared.execute({ ...page.values, limit: page.pageSize, offset: start.offset });
}

/** What a paged list's request carries (the screens' list inputs). */
export interface ListRequest {
  page: number;
  pageSize: number;
  cursor?: string;
  sortBy: string;
  sortDir: 'asc' | 'desc';
}

/**
 * One page of a screen's list: it starts after the cursor's row when the order has a `keyset` (else,
 * or with no usable cursor, at the page number's offset), its total is counted once per caller and
 * filter (`listTotal`), and `items` turns the rows into the answer. `cursorRow` names the row a
 * page's cursor points at, when the selected rows nest it. In the embedded mode the list's service
 * function reuses a whole page until the data changes (`reusedPage`), before calling this.
 * Not numberedPage (paging.ts) even with `keyset: null`: the total is reused, nextCursor answered.
 */
export async function keysetList<R, I, T>(
  { db, deps }: { db: Db; deps: AppDeps },
  input: ListRequest,
  list: {
    keyset: Omit<KeysetSpec, 'order' | 'cursor' | 'page' | 'pageSize' | 'sortDir'> | null;
    totalKey: string;
    rows: (start: PageStart) => Promise<R[]>;
    count: () => Promise<T>;
    cursorRow: (row: R) => { id: string };
    items: (rows: R[]) => I[] | Promise<I[]>;
  },
): Promise<{ items: I[]; total: T; page: number; pageSize: number; nextCursor: string | null }> {
  const order = `${input.sortBy}:${input.sortDir}`;
  const start = list.keyset
    ? await pageStart(db, { ...input, ...list.keyset, order })
    : { offset: offsetOf(input.page, input.pageSize) };
  const [rows, total] = await Promise.all([
    list.rows(start),
    listTotal(deps, list.totalKey, start.after !== undefined, list.count),
  ]);
  return {
    items: await list.items(rows),
    total,
    page: input.page,
    pageSize: input.pageSize,
    nextCursor: nextCursorOf(order, rows.map(list.cursorRow), input.pageSize),
  };
}

// ---------------------------------------------------------------------------------------------
// Totals: counted once, reused by the pages that follow and, between writes, by page 1 again.

/**
 * A list's total (and anything else counted over every page, like the payments' sums), per caller
 * and filter (docs/performance.md#keyset-paging). A request with a cursor, which is paging on
 * through the list just counted, reuses the count for 30 seconds. A request without one (page 1,
 * a jump, any REST call) reuses it like the other reused reads (read-cache.ts): within
 * DASHBOARD_CACHE_SECONDS and only while this server has made no write since the count, so
 * whoever adds or removes a row sees the new total at once. Concurrent requests share one count;
 * a failed count is forgotten. Per server process. The totals are not forgotten at a write (as
 * `reusedRead`'s answers are): the pages with a cursor still reuse them.
 */
export function listTotal<T>(deps: AppDeps, key: string, withCursor: boolean, count: () => Promise<T>): Promise<T> {
  return reusedTotal(deps, key, withCursor, count);
}

/** The key of a list's total: the list, the caller and every filter (not the page, order or cursor). */
export function totalKey(list: string, actorId: string, filters: Record<string, unknown>): string {
  const rest = Object.entries(filters)
    .filter(([k, v]) => v !== undefined && !['page', 'pageSize', 'cursor', 'sortBy', 'sortDir'].includes(k))
    .sort(([a], [b]) => a.localeCompare(b));
  return `${list}|${actorId}|${JSON.stringify(rest)}`;
}
