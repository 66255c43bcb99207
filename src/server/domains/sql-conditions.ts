import { and, or, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

/** The ILIKE pattern of "contains `text`", taken literally (no LIKE wildcards). */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Case-insensitive "contains" that treats the user's text literally (no LIKE wildcards). */
export function ilikeContains(column: AnyPgColumn | SQL, text: string): SQL {
  return sql`${column} ilike ${containsPattern(text)}`;
}

/** drizzle's and() of conditions that are all present, typed as the condition it always is. */
export function allOf(first: SQL, ...rest: SQL[]): SQL {
  return and(first, ...rest) ?? first;
}

/** drizzle's or() of conditions that are all present, typed as the condition it always is. */
export function anyOf(first: SQL, ...rest: SQL[]): SQL {
  return or(first, ...rest) ?? first;
}
