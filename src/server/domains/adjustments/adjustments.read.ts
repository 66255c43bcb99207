/** Reading adjustments: one, a record's, and every record's page (the approval queue and reports). */
import { and, desc, eq, sql } from 'drizzle-orm';
import { adjustments, enrollments, treatmentBookings } from '../../db/schema';
import { AppError } from '../../errors';
import {
  ADJUSTMENT_MESSAGES,
  type TAdjustment,
  type TAdjustmentPage,
  type TListAdjustmentsInput,
  type TAdjustmentsOfInput,
} from '@shared/schemas/adjustments';
import { assertRecordInScope, branchCondition, branchScopeOf, findInBranchScope } from '../branch-scope';
import type { ServiceContext } from '../context';
import { assertId, isUuid } from '../ids';
import { withItems } from './adjustments.dto';
import { notFoundOf, refOf, type AdjustmentRow } from './adjustments.steps';

export async function findAdjustment(ctx: ServiceContext, id: string): Promise<AdjustmentRow> {
  assertId(id, 'Adjustment');
  return findInBranchScope(ctx, adjustments, id, ADJUSTMENT_MESSAGES.notFound);
}

export async function getAdjustment(ctx: ServiceContext, id: string): Promise<TAdjustment> {
  const [dto] = await withItems(ctx.db, [await findAdjustment(ctx, id)]);
  if (!dto) throw new AppError('NOT_FOUND', ADJUSTMENT_MESSAGES.notFound);
  return dto;
}

/** GET /api/enrollments/{id}/adjustments (and bookings): newest first. */
export async function adjustmentsOf(ctx: ServiceContext, input: TAdjustmentsOfInput): Promise<TAdjustment[]> {
  const ref = refOf(input);
  assertId(ref.id, ref.kind === 'enrollment' ? 'Enrollment' : 'Booking');
  await assertRecordInScope(ctx, ref.kind, ref.id, notFoundOf(ref));
  const rows = await ctx.db
    .select()
    .from(adjustments)
    .where(ref.kind === 'enrollment' ? eq(adjustments.enrollmentId, ref.id) : eq(adjustments.bookingId, ref.id))
    .orderBy(desc(adjustments.createdAt), desc(adjustments.id))
    .limit(1000);
  if (rows.length === 0) {
    // An unknown record is 404, not an empty list.
    const table = ref.kind === 'enrollment' ? enrollments : treatmentBookings;
    const [exists] = await ctx.db.select({ id: table.id }).from(table).where(eq(table.id, ref.id)).limit(1);
    if (!exists) throw new AppError('NOT_FOUND', notFoundOf(ref));
  }
  return withItems(ctx.db, rows);
}

/** Every record's adjustments, newest first: the approval queue (`status=pending`) and the reports' list. */
export async function listAdjustments(ctx: ServiceContext, input: TListAdjustmentsInput): Promise<TAdjustmentPage> {
  const tz = ctx.deps.config.TIME_ZONE;
  const dayStart = (day: string) => sql`(${day}::date)::timestamp at time zone ${tz}`;
  const where = and(
    branchCondition(await branchScopeOf(ctx), adjustments.branchId),
    input.status ? eq(adjustments.status, input.status) : undefined,
    input.kind ? eq(adjustments.kind, input.kind) : undefined,
    input.branchId ? (isUuid(input.branchId) ? eq(adjustments.branchId, input.branchId) : sql`false`) : undefined,
    input.from ? sql`${adjustments.createdAt} >= ${dayStart(input.from)}` : undefined,
    input.to ? sql`${adjustments.createdAt} < ${dayStart(input.to)} + interval '1 day'` : undefined,
  );
  const [rows, [count]] = await Promise.all([
    ctx.db
      .select()
      .from(adjustments)
      .where(where)
      .orderBy(desc(adjustments.createdAt), desc(adjustments.id))
      .limit(input.limit)
      .offset((input.page - 1) * input.limit),
    ctx.db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(adjustments)
      .where(where),
  ]);
  return { data: await withItems(ctx.db, rows), total: count?.n ?? 0, page: input.page };
}
