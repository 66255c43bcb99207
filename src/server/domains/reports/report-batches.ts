import { and, asc, count, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import type { ReportColumn, ReportRow, ReportSource } from './report-source';

/*
 * A report's rows read in batches in (created_at, id) order, each batch "the rows after the last
 * one" (an index range), so a report of any size is read in flat memory and time per row.
 */

export interface Cursor {
  ts: string;
  id: string;
}

/** Walks a query ordered by (created_at, id); the timestamp travels as text to keep microseconds. */
export async function* keyset<T extends { cursorTs: string; cursorId: string }>(
  fetch: (after: Cursor | null, limit: number) => Promise<T[]>,
  batchSize: number,
): AsyncGenerator<T[]> {
  let after: Cursor | null = null;
  for (;;) {
    const batch = await fetch(after, batchSize);
    if (batch.length) yield batch;
    const last = batch.at(-1);
    if (!last || batch.length < batchSize) return;
    after = { ts: last.cursorTs, id: last.cursorId };
  }
}

/** The two cursor fields a walked query selects, named as `keyset` reads them. */
export interface CursorFields {
  cursorTs: SQL<string>;
  cursorId: AnyPgColumn;
}

/** A drizzle select with its filters applied: it is ordered and cut by the walk. */
export interface FilteredSelect<T> {
  orderBy(...by: SQL[]): { limit(n: number): Promise<T[]> };
}

/**
 * A report over one table's rows (with any joins), walked by the table's (created_at, id) in
 * keyset batches. `count` and `select` receive the filters as one condition; `select` puts
 * `cursor` among its fields. A source without totals has none.
 */
export function tableSource<T>(opts: {
  title: string;
  fileBase: string;
  columns: ReportColumn[];
  filterLines: string[];
  table: { createdAt: AnyPgColumn; id: AnyPgColumn };
  where: SQL[];
  count: (where: SQL | undefined) => Promise<Array<{ n: number }>>;
  select: (where: SQL | undefined, cursor: CursorFields) => FilteredSelect<T & { cursorTs: string; cursorId: string }>;
  row: (r: T) => ReportRow;
  totals?: () => Promise<ReportRow[]>;
}): ReportSource {
  const { table, where } = opts;
  const cursor = { cursorTs: cursorTs(table.createdAt), cursorId: table.id };
  return {
    title: opts.title,
    fileBase: opts.fileBase,
    columns: opts.columns,
    filterLines: opts.filterLines,
    async count() {
      const [r] = await opts.count(and(...where));
      return r?.n ?? 0;
    },
    async *batches(size) {
      const fetch = (after: Cursor | null, limit: number) =>
        opts
          .select(and(...where, afterCursor(table.createdAt, table.id, after)), cursor)
          .orderBy(asc(table.createdAt), asc(table.id))
          .limit(limit);
      for await (const batch of keyset(fetch, size)) yield batch.map(opts.row);
    },
    totals: opts.totals ?? (() => Promise.resolve([])),
  };
}

/** `tableSource`'s count for a table read without joins. */
export const countIn = (db: Db, table: PgTable) => (where: SQL | undefined) =>
  db.select({ n: count() }).from(table).where(where);

export const afterCursor = (ts: AnyPgColumn, id: AnyPgColumn, after: Cursor | null): SQL | undefined =>
  after ? sql`(${ts}, ${id}) > (${after.ts}::timestamptz, ${after.id}::uuid)` : undefined;

export const cursorTs = (col: AnyPgColumn) => sql<string>`${col}::text`;
