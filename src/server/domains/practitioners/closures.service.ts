/**
 * Branch closures (docs/appointments.md#resources): days a branch is closed, such as holidays; no
 * appointment is booked at the branch that day. Admins add and remove them; staff read them.
 */
import { and, asc, eq, gte, lte } from 'drizzle-orm';
import { firstRow } from '../../db/rows';
import { branchClosures } from '../../db/schema';
import { AppError, isUniqueViolation } from '../../errors';
import {
  RESOURCE_MESSAGES,
  type TAddClosureInput,
  type TClosure,
  type TClosureIdInput,
  type TClosureList,
  type TListClosuresInput,
} from '@shared/schemas/practitioners';
import { fieldChanges, recordAudit } from '../audit/audit.service';
import type { ServiceContext } from '../context';
import { assertId } from '../ids';
import { branchInScope } from './practitioners.read';

const M = RESOURCE_MESSAGES;
type ClosureRow = typeof branchClosures.$inferSelect;

const toClosureDto = (r: ClosureRow, branch: { _id: string; name: string }): TClosure => ({
  _id: r.id,
  branch,
  date: r.day,
  reason: r.reason,
  createdAt: r.createdAt.toISOString(),
});

/** GET /api/branch/{id}/closures: by day; `from`/`to` (days, both included) narrow it. */
export async function listClosures(ctx: ServiceContext, input: TListClosuresInput): Promise<TClosureList> {
  const branch = await branchInScope(ctx, input.branchId);
  const rows = await ctx.db
    .select()
    .from(branchClosures)
    .where(
      and(
        eq(branchClosures.branchId, branch._id),
        input.range?.from ? gte(branchClosures.day, input.range.from) : undefined,
        input.range?.to ? lte(branchClosures.day, input.range.to) : undefined,
      ),
    )
    .orderBy(asc(branchClosures.day))
    .limit(2000);
  return { data: rows.map((r) => toClosureDto(r, branch)) };
}

/** POST /api/branch/{id}/closures: one closure per branch and day (409 for a second). */
export async function addClosure(ctx: ServiceContext, input: TAddClosureInput): Promise<TClosure> {
  const branch = await branchInScope(ctx, input.branchId);
  try {
    return await ctx.db.transaction(async (tx) => {
      const row = firstRow(
        await tx
          .insert(branchClosures)
          .values({ branchId: branch._id, day: input.closure.date, reason: input.closure.reason ?? '' })
          .returning(),
      );
      await recordAudit(tx, ctx, {
        action: 'create',
        entityType: 'branch_closure',
        entityId: row.id,
        summary: `Closed ${branch.name} on ${row.day}${row.reason ? ` (${row.reason})` : ''}`,
        changes: fieldChanges(null, { branch: branch.name, date: row.day, reason: row.reason }),
      });
      return toClosureDto(row, branch);
    });
  } catch (err) {
    // The unique index (branch, day) decides, a race of two adds included.
    if (isUniqueViolation(err)) throw new AppError('CONFLICT', M.duplicateClosure);
    throw err;
  }
}

export async function removeClosure(ctx: ServiceContext, input: TClosureIdInput): Promise<{ message: string }> {
  const branch = await branchInScope(ctx, input.branchId);
  assertId(input.closureId, 'Closure');
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .delete(branchClosures)
      .where(and(eq(branchClosures.id, input.closureId), eq(branchClosures.branchId, branch._id)))
      .returning();
    if (!row) throw new AppError('NOT_FOUND', M.closureNotFound);
    await recordAudit(tx, ctx, {
      action: 'delete',
      entityType: 'branch_closure',
      entityId: row.id,
      summary: `Reopened ${branch.name} on ${row.day}`,
      changes: fieldChanges({ branch: branch.name, date: row.day, reason: row.reason }, null),
    });
    return { message: M.closureDeleted };
  });
}
