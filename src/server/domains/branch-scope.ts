import { and, eq, sql, type InferSelectModel, type Placeholder, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client';
import { enrollments, settings, treatmentBookings, users } from '../db/schema';
import { AppError } from '../errors';
import type { SystemContext } from './context';
import { isUuid } from './ids';

/**
 * The "managers see only their own branch" setting (docs/security.md#branch-scope). People belong
 * to a branch; enrolments and bookings belong to the branch of their student or customer. When the
 * setting is on, a manager's lists, details, statistics, reports and writes are limited to people
 * of the manager's branch; a manager without a branch sees none. Admins and superadmins, and every
 * caller while the setting is off, are not limited.
 *
 * The services apply it, so tRPC, REST and the report worker all obey the same rule.
 */
export interface BranchScope {
  /** The one branch the caller may work with; null means no branch at all (sees nothing). */
  branchId: string | null;
}

/** The part of a service's context the scope reads. */
type ScopeContext = Pick<SystemContext, 'db' | 'actor'>;

export async function managersOwnBranchOnly(db: Db): Promise<boolean> {
  const [row] = await db
    .select({ on: settings.managersOwnBranchOnly })
    .from(settings)
    .where(eq(settings.id, 1))
    .limit(1);
  return row?.on ?? false;
}

/** The caller's limit, or null when the caller is not limited. Costs one query for managers only. */
export async function branchScopeOf(ctx: ScopeContext): Promise<BranchScope | null> {
  if (ctx.actor?.role !== 'manager') return null;
  if (!(await managersOwnBranchOnly(ctx.db))) return null;
  return { branchId: ctx.actor.branchId };
}

export const OTHER_BRANCH = 'You can only add users to your own branch or move them within it.';

/** Creating or moving a user into `branchId` must stay inside the caller's scope (403 otherwise). */
export async function assertBranchInScope(ctx: ScopeContext, branchId: string | null): Promise<void> {
  const scope = await branchScopeOf(ctx);
  if (scope && branchId !== scope.branchId) throw new AppError('FORBIDDEN', OTHER_BRANCH);
}

/**
 * A WHERE condition on a users-branch column (the joined `users.branch_id` by default). The branch
 * may be a placeholder, in a statement built once (db/prepared.ts).
 */
export function branchCondition(
  scope: { branchId: string | Placeholder | null } | null,
  column: AnyPgColumn = users.branchId,
): SQL | undefined {
  if (!scope) return undefined;
  return scope.branchId ? eq(column, scope.branchId) : sql`false`;
}

/** Rows of `owner` (a user id column) whose user is in the scope: for queries that do not join users. */
export function ownerInScope(scope: BranchScope | null, owner: AnyPgColumn): SQL | undefined {
  if (!scope) return undefined;
  if (!scope.branchId) return sql`false`;
  return sql`${owner} in (select ${users.id} from ${users} where ${users.branchId} = ${scope.branchId})`;
}

/**
 * Out-of-scope records answer exactly like missing ones (404 with the record's own message), so a
 * limited manager learns nothing about other branches.
 */
export async function assertUserInScope(ctx: ScopeContext, userId: string, notFound: string): Promise<void> {
  const scope = await branchScopeOf(ctx);
  // A malformed id is the caller's own validation's to refuse (400), as without the setting; and
  // a manager without a branch still reaches their own account.
  if (!scope || !isUuid(userId) || userId === ctx.actor?.id) return;
  if (!scope.branchId) throw new AppError('NOT_FOUND', notFound);
  const [row] = await ctx.db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.branchId, scope.branchId)))
    .limit(1);
  if (!row) throw new AppError('NOT_FOUND', notFound);
}

const owned = {
  enrollment: { table: enrollments, id: enrollments.id, owner: enrollments.userId },
  booking: { table: treatmentBookings, id: treatmentBookings.id, owner: treatmentBookings.userId },
} as const;

/** An enrolment or booking is in scope when its student or customer is. */
export async function assertRecordInScope(
  ctx: ScopeContext,
  kind: keyof typeof owned,
  id: string,
  notFound: string,
): Promise<void> {
  const scope = await branchScopeOf(ctx);
  if (!scope || !isUuid(id)) return;
  if (!scope.branchId) throw new AppError('NOT_FOUND', notFound);
  const t = owned[kind];
  const [row] = await ctx.db
    .select({ id: t.id })
    .from(t.table)
    .innerJoin(users, eq(users.id, t.owner))
    .where(and(eq(t.id, id), eq(users.branchId, scope.branchId)))
    .limit(1);
  if (!row) throw new AppError('NOT_FOUND', notFound);
}

/**
 * A row of a ledger table that keeps the branch it was written at (payments, refunds,
 * adjustments), if the caller may see it: out of a limited manager's branch it does not exist for
 * them, so the answer is the same 404 as for an id that was never there.
 */
export async function findInBranchScope<T extends PgTable & { id: AnyPgColumn; branchId: AnyPgColumn }>(
  ctx: ScopeContext,
  table: T,
  id: string,
  notFound: string,
): Promise<InferSelectModel<T>> {
  const scope = await branchScopeOf(ctx);
  // A table passed as a type parameter is beyond drizzle's inference, so it is read as a plain
  // table and its row typed back as the table's own.
  const from: PgTable = table;
  const [row] = await ctx.db
    .select()
    .from(from)
    .where(and(eq(table.id, id), branchCondition(scope, table.branchId)))
    .limit(1);
  if (!row) throw new AppError('NOT_FOUND', notFound);
  return row as InferSelectModel<T>;
}
