import { getTableColumns, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import { countIn, tableSource, type FilteredSelect } from './report-batches';
import { createdWithin } from './report-filters';
import type { CellValue, ReportColumn, ReportRow, ReportSource } from './report-source';

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

/**
 * The requested columns a source knows, in the order asked. The request schemas let only known
 * names through; this keeps a stored spec from an older version from naming a column that is gone.
 */
export function knownKeys<K extends string>(meta: Record<K, unknown>, keys: readonly string[]): K[] {
  return keys.filter((k): k is K => Object.hasOwn(meta, k));
}
