import { eq, gte, lte, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import { branches } from '../../db/schema';
import { ownerInScope, type BranchScope } from '../branch-scope';
import { formatDay, formatMoney } from '../../../shared/format';
import { fromMinor } from '../../../shared/money';

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

/**
 * A record report's conditions (enrolments, bookings): the catalogue's, the caller's branch scope
 * on the record's owner, and the record's own day within the dates.
 */
export function recordWhere(
  catalogue: SQL[],
  scope: BranchScope | null,
  cols: { owner: AnyPgColumn; day: AnyPgColumn },
  f: { startDate?: string; endDate?: string },
): SQL[] {
  const mine = ownerInScope(scope, cols.owner);
  return [...catalogue, ...(mine ? [mine] : []), ...dayWithin(cols.day, f.startDate, f.endDate)];
}

export function catalogueFilterLines(priceLabel: string, f: CatalogueFilters, dateLabel: string): string[] {
  return [
    ...(f.category ? [`Category: ${f.category}`] : []),
    ...moneyFilterLine(priceLabel, f.minPrice, f.maxPrice),
    ...dateFilterLine(dateLabel, f.startDate, f.endDate),
  ];
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

/**
 * A period report's first filter lines as its files print them: the days, and the branch by name
 * (or that a manager without a branch sees none).
 */
export async function periodFilterLines(
  db: Db,
  s: { from: string; to: string; none?: boolean; branchId?: string | null },
): Promise<string[]> {
  const lines = [`From: ${formatDay(s.from)}`, `To: ${formatDay(s.to)}`];
  if (s.none) lines.push('Branch: none (your account has no branch)');
  else if (s.branchId) {
    const id = s.branchId;
    const [row] = await db.select({ n: branches.name }).from(branches).where(eq(branches.id, id)).limit(1);
    lines.push(`Branch: ${row?.n ?? 'Unknown'}`);
  }
  return lines;
}
