import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
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

export const afterCursor = (ts: AnyPgColumn, id: AnyPgColumn, after: Cursor | null): SQL | undefined =>
  after ? sql`(${ts}, ${id}) > (${after.ts}::timestamptz, ${after.id}::uuid)` : undefined;

export const cursorTs = (col: AnyPgColumn) => sql<string>`${col}::text`;

export const sameText = (col: AnyPgColumn, value: string) => sql`lower(${col}) = lower(${value})`;
/** Whole days in the institute's time zone, both ends included. */
export const createdOnOrAfter = (col: AnyPgColumn, d: string, tz: string) =>
  sql`(${col} at time zone ${tz})::date >= ${d}::date`;
export const createdOnOrBefore = (col: AnyPgColumn, d: string, tz: string) =>
  sql`(${col} at time zone ${tz})::date <= ${d}::date`;

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
