import { and, asc, count, getTableColumns, gte, lte, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import { formatDay, formatMoney } from '../../../shared/format';
import { fromMinor } from '../../../shared/money';

export type CellValue = string | number | null;
export type ReportRow = Record<string, CellValue>;

export interface ReportColumn {
  key: string;
  header: string;
  /** money: a decimal amount; date: YYYY-MM-DD; datetime: an ISO instant. */
  type: 'text' | 'money' | 'int' | 'date' | 'datetime';
  width: number;
}

/**
 * One report, whatever its output: the columns, a row count, the rows in batches (keyset
 * pagination, so memory stays flat however many rows there are), and totals computed in SQL.
 */
export interface ReportSource {
  title: string;
  /** File name without date and extension (docs/product.md#rest-paths). */
  fileBase: string;
  columns: ReportColumn[];
  /** Human-readable lines naming the filters used (printed on the PDF and the Excel info sheet). */
  filterLines: string[];
  count(): Promise<number>;
  batches(batchSize: number): AsyncGenerator<ReportRow[]>;
  /** Rows printed after the data (bold), e.g. totals. */
  totals(): Promise<ReportRow[]>;
  /** Extra JSON fields of the `format=json` answer. */
  summary?(): Promise<Record<string, unknown>>;
}

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
interface FilteredSelect<T> {
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

/**
 * A list report and its custom variant (courses, treatments, users): the custom one names its
 * columns in `fields`, the list has its own; either way only columns the source knows, in the
 * order asked, under the variant's title and file name.
 */
export function listOrCustom<K extends string>(
  meta: Record<K, Omit<ReportColumn, 'key' | 'header'>>,
  header: (key: K) => string,
  fields: string[] | undefined,
  listColumns: readonly string[],
  names: { list: { title: string; fileBase: string }; custom: { title: string; fileBase: string } },
) {
  const keys = knownKeys(meta, fields ?? listColumns);
  const columns: ReportColumn[] = keys.map((k) => ({ key: k, header: header(k), ...meta[k] }));
  return { keys, columns, ...(fields !== undefined ? names.custom : names.list) };
}

/** How a one-table list makes one cell: the row's properties it reads, and the value. */
export interface OneTableCell<R> {
  uses: ReadonlyArray<keyof R & string>;
  cell: (row: R) => CellValue;
}

/** A cell made from one property of the row: `cellOf<Row>()('totalFee', money)`. */
export const cellOf =
  <R>() =>
  <P extends keyof R & string>(prop: P, value: (v: R[P]) => CellValue): OneTableCell<R> => ({
    uses: [prop],
    cell: (row) => value(row[prop]),
  });

/**
 * A list report over one table read without joins (courses, treatments), or its custom variant
 * (`listOrCustom`): the rows the filters select and created within the dates, each cut to the
 * asked columns. Only the properties the asked columns use are read, flat: reading the whole row
 * and making every column was a tenth of the Excel report's CPU (docs/performance.md). `totals`
 * receives the same conditions.
 */
export function oneTableList<K extends string, T extends PgTable & { createdAt: AnyPgColumn; id: AnyPgColumn }>(
  db: Db,
  tz: string,
  opts: {
    list: { keys: K[]; columns: ReportColumn[]; title: string; fileBase: string };
    table: T;
    where: SQL[];
    dates: { startDate?: string; endDate?: string };
    filterLines: string[];
    cells: Record<K, OneTableCell<T['$inferSelect']>>;
    totals?: (where: SQL[]) => Promise<ReportRow[]>;
  },
): ReportSource {
  const { list, table, cells, totals } = opts;
  const from: PgTable = table;
  const where = [...opts.where, ...createdWithin(table.createdAt, opts.dates.startDate, opts.dates.endDate, tz)];
  const columns: Record<string, AnyPgColumn> = getTableColumns(from);
  const used = [...new Set(list.keys.flatMap((k) => cells[k].uses))];
  const fields = Object.fromEntries(used.map((p) => [p, columns[p]!]));
  return tableSource({
    title: list.title,
    fileBase: list.fileBase,
    columns: list.columns,
    filterLines: opts.filterLines,
    table,
    where,
    count: countIn(db, table),
    // drizzle cannot infer a select over a table type left open: the rows hold the used properties.
    select: (w, cursor) =>
      db
        .select({ ...fields, ...cursor })
        .from(from)
        .where(w) as unknown as FilteredSelect<T['$inferSelect'] & { cursorTs: string; cursorId: string }>,
    row: (r) => {
      const out: ReportRow = {};
      for (const k of list.keys) out[k] = cells[k].cell(r);
      return out;
    },
    totals: totals && (() => totals(where)),
  });
}

/** One row with just the asked columns, in order; a column the row lacks is empty. */
export function pickCells(keys: readonly string[], all: ReportRow): ReportRow {
  return Object.fromEntries(keys.map((k) => [k, all[k] ?? null]));
}

export const afterCursor = (ts: AnyPgColumn, id: AnyPgColumn, after: Cursor | null): SQL | undefined =>
  after ? sql`(${ts}, ${id}) > (${after.ts}::timestamptz, ${after.id}::uuid)` : undefined;

export const cursorTs = (col: AnyPgColumn) => sql<string>`${col}::text`;

export const sameText = (col: AnyPgColumn, value: string) => sql`lower(${col}) = lower(${value})`;
/** Instants on whole days from `start` to `end` in the institute's time zone, both ends included. */
export function createdWithin(col: AnyPgColumn, start: string | undefined, end: string | undefined, tz: string): SQL[] {
  const day = sql`(${col} at time zone ${tz})::date`;
  return [...(start ? [sql`${day} >= ${start}::date`] : []), ...(end ? [sql`${day} <= ${end}::date`] : [])];
}

/** A calendar-day column (enrolled on, booked on) from `start` to `end`, both ends included. */
export function dayWithin(col: AnyPgColumn, start: string | undefined, end: string | undefined): SQL[] {
  return [...(start ? [gte(col, start)] : []), ...(end ? [lte(col, end)] : [])];
}

/** What the catalogue reports (courses, treatments) filter on; the price is in minor units. */
export interface CatalogueFilters {
  category?: string;
  minPrice?: number;
  maxPrice?: number;
  startDate?: string;
  endDate?: string;
}

/** Category and price select catalogue rows; the dates select what the report is about (see callers). */
export function catalogueWhere(cols: { category: AnyPgColumn; price: AnyPgColumn }, f: CatalogueFilters): SQL[] {
  const w: SQL[] = [];
  if (f.category) w.push(sameText(cols.category, f.category));
  if (f.minPrice !== undefined) w.push(gte(cols.price, f.minPrice));
  if (f.maxPrice !== undefined) w.push(lte(cols.price, f.maxPrice));
  return w;
}

export function catalogueFilterLines(priceLabel: string, f: CatalogueFilters, dateLabel: string): string[] {
  return [
    ...(f.category ? [`Category: ${f.category}`] : []),
    ...moneyFilterLine(priceLabel, f.minPrice, f.maxPrice),
    ...dateFilterLine(dateLabel, f.startDate, f.endDate),
  ];
}

export const money = (minor: number | string | null | undefined) => (minor == null ? null : fromMinor(Number(minor)));
export const sumMinor = (expr: SQL | AnyPgColumn) => sql<number>`coalesce(sum(${expr}), 0)`.mapWith(Number);

/**
 * The requested columns a source knows, in the order asked. The request schemas let only known
 * names through; this keeps a stored spec from an older version from naming a column that is gone.
 */
export function knownKeys<K extends string>(meta: Record<K, unknown>, keys: readonly string[]): K[] {
  return keys.filter((k): k is K => Object.hasOwn(meta, k));
}

export function moneyFilterLine(label: string, min?: number, max?: number): string[] {
  const rs = (minor: number) => formatMoney(fromMinor(minor));
  if (min !== undefined && max !== undefined) return [`${label}: ${rs(min)} to ${rs(max)}`];
  if (min !== undefined) return [`${label}: at least ${rs(min)}`];
  if (max !== undefined) return [`${label}: at most ${rs(max)}`];
  return [];
}

export function dateFilterLine(label: string, start?: string, end?: string): string[] {
  if (!start && !end) return [];
  if (start && end) return [`${label}: ${formatDay(start)} to ${formatDay(end)}`];
  return start ? [`${label}: from ${formatDay(start)}`] : [`${label}: until ${formatDay(end)}`];
}

export function durationText(weeks: number, days: number, months: number): string {
  const parts = [weeks ? `${weeks}W` : '', days ? `${days}D` : '', months ? `${months}M` : ''].filter(Boolean);
  return parts.join(' ');
}

/** A totals row: the label goes in the first column that carries no total. */
export function totalsRow(keys: readonly string[], values: ReportRow, label = 'Total'): ReportRow {
  const row: ReportRow = Object.fromEntries(keys.map((k) => [k, null]));
  const labelKey = keys.find((k) => !(k in values));
  if (labelKey) row[labelKey] = label;
  return { ...row, ...values };
}
