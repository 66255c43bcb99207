import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { ReportRow } from './report-source';

/** The sum of a minor-units column or expression in SQL, 0 over no rows. */
export const sumMinor = (expr: SQL | AnyPgColumn) => sql<number>`coalesce(sum(${expr}), 0)`.mapWith(Number);

/** A totals row: the label goes in the first column that carries no total. */
export function totalsRow(keys: readonly string[], values: ReportRow, label = 'Total'): ReportRow {
  const row: ReportRow = Object.fromEntries(keys.map((k) => [k, null]));
  const labelKey = keys.find((k) => !(k in values));
  if (labelKey) row[labelKey] = label;
  return { ...row, ...values };
}
