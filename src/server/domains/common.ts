import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { AppError } from '../errors';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A malformed id cannot name a row: answer 404 like any unknown id, never a database error. */
export function assertId(id: string, what: string): string {
  if (!UUID_RE.test(id)) throw new AppError('NOT_FOUND', `${what} not found.`);
  return id;
}

export function isUuid(id: string): boolean {
  return UUID_RE.test(id);
}

/** Case-insensitive "contains" that treats the user's text literally (no LIKE wildcards). */
export function ilikeContains(column: AnyPgColumn | SQL, text: string): SQL {
  const escaped = text.replace(/[\\%_]/g, (c) => `\\${c}`);
  return sql`${column} ilike ${`%${escaped}%`}`;
}

export function offsetOf(page: number, pageSize: number) {
  return (page - 1) * pageSize;
}

export const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);
