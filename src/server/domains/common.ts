import { and, or, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgSelect } from 'drizzle-orm/pg-core';
import type { Actor } from '../auth/sessions';
import type { Db } from '../db/client';
import type { AppDeps, RequestMeta } from '../deps';
import { AppError } from '../errors';

/**
 * What a service function receives (docs/architecture.md#the-path-of-a-request): the database (or
 * a transaction), who is acting, and the server's shared parts. tRPC procedures pass `ctx.svc`,
 * REST handlers their `ctx`.
 */
export interface ServiceContext {
  db: Db;
  actor: Actor;
  deps: AppDeps;
  /** The caller's address, user agent and request id, for the audit trail; absent for jobs and the seed. */
  request?: RequestMeta;
}

/**
 * For rules anyone may reach: the seed, jobs and public paths call these without an actor, and an
 * absent actor is never limited to a branch (docs/security.md#branch-scope).
 */
export type SystemContext = Omit<ServiceContext, 'actor'> & { actor?: Actor | null };

/** A public path's context: the caller may be signed out. */
export type PublicContext = SystemContext & { actor: Actor | null };

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A malformed id cannot name a row: answer 404 like any unknown id, never a database error. */
export function assertId(id: string, what: string): string {
  if (!UUID_RE.test(id)) throw new AppError('NOT_FOUND', `${what} not found.`);
  return id;
}

export function isUuid(id: string): boolean {
  return UUID_RE.test(id);
}

/** The ILIKE pattern of "contains `text`", taken literally (no LIKE wildcards). */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * Case-insensitive "contains" that treats the user's text literally (no LIKE wildcards); `pattern`
 * is the pattern as a placeholder of a built-once query (given `containsPattern(text)` then).
 */
export function ilikeContains(column: AnyPgColumn | SQL, text: string | Placeholder): SQL {
  return sql`${column} ilike ${typeof text === 'string' ? containsPattern(text) : text}`;
}

/** drizzle's and() of conditions that are all present, typed as the condition it always is. */
export function allOf(first: SQL, ...rest: SQL[]): SQL {
  return and(first, ...rest) ?? first;
}

/** drizzle's or() of conditions that are all present, typed as the condition it always is. */
export function anyOf(first: SQL, ...rest: SQL[]): SQL {
  return or(first, ...rest) ?? first;
}

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

export const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);
