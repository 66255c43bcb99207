/**
 * Discounts, scholarships and write-offs (docs/payments.md#adjustments): each is an entry of its
 * own with who, when and why and what each item's amount was before and after. The items' amounts
 * change in the same transaction, under the record's lock, so every reader of what is owed (the
 * statuses, overdue, the dashboard, statements, receivables, reports) reads the adjusted figures.
 */
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { firstRow } from '../../db/rows';
import {
  adjustmentItems,
  adjustments,
  enrollments,
  scholarshipSchemes,
  settings,
  treatmentBookings,
} from '../../db/schema';
import { AppError } from '../../errors';
import { formatMoney } from '../../../shared/format';
import { fromMinor, toMinor } from '../../../shared/money';
import { isAdmin } from '../../../shared/roles';
import { ADJUSTMENT_KIND_LABELS } from '../../../shared/adjustment-kinds';
import {
  ADJUSTMENT_MESSAGES,
  type TAdjustment,
  type TAdjustmentBody,
  type TAdjustmentPage,
  type TListAdjustmentsInput,
  type TAdjustmentPreview,
  type TAdjustmentSettingsInput,
  type TAdjustmentsOfInput,
  type TCreateAdjustmentInput,
  type TDecideAdjustmentInput,
  type TRevokeAdjustmentInput,
} from '@shared/schemas/adjustments';
import { recordAudit } from '../audit/audit.service';
import { assertRecordInScope, branchCondition, branchScopeOf } from '../branch-scope';
import type { ServiceContext, SystemContext } from '../context';
import { assertId, isUuid } from '../ids';
import { invalidateReads } from '../read-cache';
import { saveSettings } from '../settings/settings.service';
import { todayIn } from '../../../shared/calendar';
import { changeItemAmount, refreshTarget } from '../payments/ledger-items';
import { itemName, targetName } from '../payments/ledger-audit';
import {
  BOOKING_CANCELLED,
  BOOKING_NOT_FOUND,
  ENROLLMENT_COMPLETED,
  ENROLLMENT_NOT_FOUND,
  itemsOf,
  lockBookingTarget,
  lockEnrollmentTarget,
  type LedgerTarget,
} from '../payments/ledger-targets';
import { planAdjustment, type PlannedItem, type PlanRequest } from './adjustments.plan';
import { withItems } from './adjustments.dto';

type AdjustmentRow = typeof adjustments.$inferSelect;
type RecordRef = { kind: 'enrollment' | 'booking'; id: string };

const refOf = (input: { enrollmentId?: string; bookingId?: string }): RecordRef =>
  input.enrollmentId ? { kind: 'enrollment', id: input.enrollmentId } : { kind: 'booking', id: input.bookingId ?? '' };
const notFoundOf = (ref: RecordRef) => (ref.kind === 'enrollment' ? ENROLLMENT_NOT_FOUND : BOOKING_NOT_FOUND);
const today = (ctx: Pick<ServiceContext, 'deps'>) => todayIn(ctx.deps.config.TIME_ZONE);

const lockTarget = (tx: Db, ref: RecordRef) =>
  ref.kind === 'enrollment' ? lockEnrollmentTarget(tx, ref.id) : lockBookingTarget(tx, ref.id);

/** A completed enrolment or a cancelled booking is owed nothing more, so its amounts stay as they are. */
function assertChangeable(target: LedgerTarget) {
  if (target.kind === 'enrollment' && target.status === 'completed')
    throw new AppError('CONFLICT', ENROLLMENT_COMPLETED);
  if (target.kind === 'booking' && target.status === 'cancelled') throw new AppError('CONFLICT', BOOKING_CANCELLED);
}

// ---------------------------------------------------------------------------------------------
// The approval setting (docs/payments.md#approval)

export async function getAdjustmentSettings(db: Db): Promise<{ approvalRequired: boolean }> {
  const [row] = await db
    .select({ on: settings.adjustmentApprovalRequired })
    .from(settings)
    .where(eq(settings.id, 1))
    .limit(1);
  return { approvalRequired: row?.on ?? false };
}

export function updateAdjustmentSettings(ctx: SystemContext, input: TAdjustmentSettingsInput) {
  return saveSettings(
    ctx,
    'adjustments',
    { adjustmentApprovalRequired: input.approvalRequired },
    getAdjustmentSettings,
    (after) =>
      after.approvalRequired
        ? 'Let managers ask for discounts and scholarships, applied once an admin approves'
        : 'Turned approval of adjustments off: only admins give discounts and scholarships',
  );
}

// ---------------------------------------------------------------------------------------------
// Asking for one

/** What the caller may do with this kind: apply it, ask for it (pending), or nothing (403). */
async function modeFor(ctx: ServiceContext, body: TAdjustmentBody): Promise<'apply' | 'request'> {
  if (isAdmin(ctx.actor.role)) return 'apply';
  if (body.kind === 'write_off') throw new AppError('FORBIDDEN', ADJUSTMENT_MESSAGES.writeOffAdmins);
  if (!(await getAdjustmentSettings(ctx.db)).approvalRequired)
    throw new AppError('FORBIDDEN', ADJUSTMENT_MESSAGES.managersNeedApproval);
  return 'request';
}

/** The scheme a scholarship names, which must exist and (for a new one) be active. */
async function schemeOf(db: Db, schemeId: string | undefined) {
  if (!schemeId) return null;
  if (!isUuid(schemeId)) throw new AppError('NOT_FOUND', ADJUSTMENT_MESSAGES.schemeNotFound);
  const [s] = await db.select().from(scholarshipSchemes).where(eq(scholarshipSchemes.id, schemeId)).limit(1);
  if (!s) throw new AppError('NOT_FOUND', ADJUSTMENT_MESSAGES.schemeNotFound);
  if (!s.active) throw new AppError('CONFLICT', ADJUSTMENT_MESSAGES.schemeInactive);
  return s;
}

/** The stored request as the planner reads it. */
function requestOf(body: TAdjustmentBody, scheme: { defaultPercent: number } | null): PlanRequest {
  const percent = body.percent ?? (body.amount === undefined && scheme ? scheme.defaultPercent : undefined);
  return {
    kind: body.kind,
    percentHundredths: body.kind === 'write_off' || percent === undefined ? null : Math.round(percent * 100),
    amount: body.kind === 'write_off' || body.amount === undefined ? null : toMinor(body.amount),
    itemId: body.itemId ?? null,
  };
}

const storedRequest = (a: AdjustmentRow): PlanRequest => ({
  kind: a.kind,
  percentHundredths: a.percent === null ? null : Math.round(a.percent * 100),
  amount: a.requestedAmount,
  itemId: a.itemId,
});

/** Changes the items as planned and answers the rows that record it. */
async function applyPlan(
  tx: Db,
  target: LedgerTarget,
  adjustmentId: string,
  plan: PlannedItem[],
  when: Date,
  todayIso: string,
) {
  const rows: Array<typeof adjustmentItems.$inferInsert> = [];
  for (const p of plan) {
    const changed = await changeItemAmount(tx, target, p.item, p.after - p.before, when);
    if (!changed) continue;
    rows.push({
      adjustmentId,
      kind: p.item.kind,
      enrollmentInstallmentId: p.item.kind === 'enrollment_installment' ? p.item.installmentId : null,
      bookingInstallmentId: p.item.kind === 'booking_installment' ? p.item.installmentId : null,
      installmentNumber: p.item.number,
      dueDate: p.item.dueDate,
      before: changed.before,
      after: changed.after,
    });
  }
  if (rows.length) await tx.insert(adjustmentItems).values(rows);
  await refreshTarget(tx, target, todayIso);
}

const planRows = (adjustmentId: string, plan: PlannedItem[]): Array<typeof adjustmentItems.$inferInsert> =>
  plan.map((p) => ({
    adjustmentId,
    kind: p.item.kind,
    enrollmentInstallmentId: p.item.kind === 'enrollment_installment' ? p.item.installmentId : null,
    bookingInstallmentId: p.item.kind === 'booking_installment' ? p.item.installmentId : null,
    installmentNumber: p.item.number,
    dueDate: p.item.dueDate,
    before: p.before,
    after: p.after,
  }));

const sumOf = (plan: PlannedItem[]) => plan.reduce((s, p) => s + (p.before - p.after), 0);
const planLines = (plan: PlannedItem[]) =>
  plan.map((p) => `${itemName(p.item)}: ${fromMinor(p.before)} → ${fromMinor(p.after)}`);

/** What an adjustment would do now, without doing it (the screens' before-and-after preview). */
export async function previewAdjustment(
  ctx: ServiceContext,
  input: TCreateAdjustmentInput,
): Promise<TAdjustmentPreview> {
  const ref = refOf(input);
  await assertRecordInScope(ctx, ref.kind, ref.id, notFoundOf(ref));
  const mode = await modeFor(ctx, input.body);
  const scheme = await schemeOf(ctx.db, input.body.schemeId);
  // The same lock and plan as the write, so the preview is what the write would do; it writes nothing.
  return ctx.db.transaction(async (tx) => {
    const target = await lockTarget(tx, ref);
    assertChangeable(target);
    const plan = planAdjustment(target, await itemsOf(tx, target), requestOf(input.body, scheme));
    return {
      currency: target.currency,
      total: fromMinor(sumOf(plan)),
      pending: mode === 'request',
      items: plan.map((p) => ({
        itemId: p.item.kind === 'admission_fee' ? 'admission_fee' : p.item.installmentId,
        item: p.item.kind === 'admission_fee' ? ('admission_fee' as const) : ('installment' as const),
        installmentNumber: p.item.number,
        dueDate: p.item.dueDate,
        before: fromMinor(p.before),
        after: fromMinor(p.after),
      })),
    };
  });
}

/**
 * POST /api/enrollments/{id}/adjustments (and bookings): an admin's applies at once; a manager's,
 * with approval on, waits as `pending` and changes nothing until an admin decides.
 */
export async function createAdjustment(ctx: ServiceContext, input: TCreateAdjustmentInput): Promise<TAdjustment> {
  const ref = refOf(input);
  await assertRecordInScope(ctx, ref.kind, ref.id, notFoundOf(ref));
  const mode = await modeFor(ctx, input.body);
  const scheme = await schemeOf(ctx.db, input.body.schemeId);
  const body = input.body;
  const id = await ctx.db.transaction(async (tx) => {
    const target = await lockTarget(tx, ref);
    assertChangeable(target);
    const request = requestOf(body, scheme);
    const plan = planAdjustment(target, await itemsOf(tx, target), request);
    const now = new Date();
    const row = firstRow(
      await tx
        .insert(adjustments)
        .values({
          kind: body.kind,
          status: mode === 'apply' ? 'applied' : 'pending',
          enrollmentId: ref.kind === 'enrollment' ? ref.id : null,
          bookingId: ref.kind === 'booking' ? ref.id : null,
          branchId: target.payerBranchId,
          payerId: target.payerId,
          payerName: target.payerName,
          subject: target.subject,
          currency: target.currency,
          percent: request.percentHundredths === null ? null : request.percentHundredths / 100,
          requestedAmount: request.amount,
          itemId: request.itemId,
          schemeId: scheme?.id ?? null,
          schemeName: scheme?.name ?? null,
          reason: body.reason,
          total: sumOf(plan),
          createdById: ctx.actor.id,
          createdByName: ctx.actor.username,
          createdAt: now,
          ...(mode === 'apply'
            ? { approvedById: ctx.actor.id, approvedByName: ctx.actor.username, appliedAt: now, decidedAt: now }
            : {}),
        })
        .returning(),
    );
    if (mode === 'apply') await applyPlan(tx, target, row.id, plan, now, today(ctx));
    else await tx.insert(adjustmentItems).values(planRows(row.id, plan));
    const label = ADJUSTMENT_KIND_LABELS[body.kind];
    await recordAudit(tx, ctx, {
      action: 'create',
      entityType: 'adjustment',
      entityId: row.id,
      parent: { type: target.kind, id: target.id },
      summary: `${mode === 'apply' ? 'Gave' : 'Asked for'} ${label.toLowerCase()} of ${formatMoney(fromMinor(row.total), target.currency)} on ${targetName(target)}: ${body.reason}`,
      changes: [
        { field: 'kind', before: null, after: body.kind },
        { field: 'status', before: null, after: row.status },
        { field: 'total', before: null, after: fromMinor(row.total) },
        ...(row.percent !== null ? [{ field: 'percent', before: null, after: row.percent }] : []),
        ...(scheme ? [{ field: 'scheme', before: null, after: scheme.name }] : []),
        { field: 'reason', before: null, after: body.reason },
        { field: 'items', before: null, after: planLines(plan) },
      ],
    });
    return row.id;
  });
  invalidateReads(ctx.deps);
  return getAdjustment(ctx, id);
}

// ---------------------------------------------------------------------------------------------
// Reading

async function findAdjustment(ctx: ServiceContext, id: string): Promise<AdjustmentRow> {
  assertId(id, 'Adjustment');
  const scope = await branchScopeOf(ctx);
  const [a] = await ctx.db
    .select()
    .from(adjustments)
    .where(and(eq(adjustments.id, id), branchCondition(scope, adjustments.branchId)))
    .limit(1);
  if (!a) throw new AppError('NOT_FOUND', ADJUSTMENT_MESSAGES.notFound);
  return a;
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

// ---------------------------------------------------------------------------------------------
// Deciding, revoking

/** The adjustment's record locked first, then the adjustment: the order every money write takes. */
async function lockForDecision(tx: Db, a: AdjustmentRow) {
  const ref: RecordRef | null = a.enrollmentId
    ? { kind: 'enrollment', id: a.enrollmentId }
    : a.bookingId
      ? { kind: 'booking', id: a.bookingId }
      : null;
  const target = ref ? await lockTarget(tx, ref) : null;
  const [locked] = await tx.select().from(adjustments).where(eq(adjustments.id, a.id)).for('update').limit(1);
  if (!locked) throw new AppError('NOT_FOUND', ADJUSTMENT_MESSAGES.notFound);
  return { target, locked };
}

function assertDecider(ctx: ServiceContext) {
  if (!isAdmin(ctx.actor.role)) throw new AppError('FORBIDDEN', ADJUSTMENT_MESSAGES.decideAdmins);
}

/** An admin approves a pending request: planned again on what is owed now, then applied. */
export async function approveAdjustment(ctx: ServiceContext, input: TDecideAdjustmentInput): Promise<TAdjustment> {
  assertDecider(ctx);
  const a = await findAdjustment(ctx, input.id);
  await ctx.db.transaction(async (tx) => {
    const { target, locked } = await lockForDecision(tx, a);
    if (locked.status !== 'pending') throw new AppError('CONFLICT', ADJUSTMENT_MESSAGES.notPending(locked.status));
    if (!target) throw new AppError('CONFLICT', 'The enrollment or booking of this adjustment no longer exists.');
    assertChangeable(target);
    const plan = planAdjustment(target, await itemsOf(tx, target), storedRequest(locked));
    const now = new Date();
    await tx.delete(adjustmentItems).where(eq(adjustmentItems.adjustmentId, locked.id));
    await applyPlan(tx, target, locked.id, plan, now, today(ctx));
    await tx
      .update(adjustments)
      .set({
        status: 'applied',
        total: sumOf(plan),
        approvedById: ctx.actor.id,
        approvedByName: ctx.actor.username,
        appliedAt: now,
        decidedAt: now,
        decisionNote: input.note,
      })
      .where(eq(adjustments.id, locked.id));
    await recordAudit(tx, ctx, {
      action: 'approve',
      entityType: 'adjustment',
      entityId: locked.id,
      parent: { type: target.kind, id: target.id },
      summary: `Approved ${ADJUSTMENT_KIND_LABELS[locked.kind].toLowerCase()} of ${formatMoney(fromMinor(sumOf(plan)), target.currency)} on ${targetName(target)}: ${input.note}`,
      changes: [
        { field: 'status', before: 'pending', after: 'applied' },
        { field: 'decisionNote', before: null, after: input.note },
        { field: 'items', before: null, after: planLines(plan) },
      ],
    });
  });
  invalidateReads(ctx.deps);
  return getAdjustment(ctx, input.id);
}

/** An admin rejects a pending request with a note; nothing else changes. */
export async function rejectAdjustment(ctx: ServiceContext, input: TDecideAdjustmentInput): Promise<TAdjustment> {
  assertDecider(ctx);
  const a = await findAdjustment(ctx, input.id);
  await ctx.db.transaction(async (tx) => {
    const { locked } = await lockForDecision(tx, a);
    if (locked.status !== 'pending') throw new AppError('CONFLICT', ADJUSTMENT_MESSAGES.notPending(locked.status));
    await tx
      .update(adjustments)
      .set({
        status: 'rejected',
        approvedById: ctx.actor.id,
        approvedByName: ctx.actor.username,
        decidedAt: new Date(),
        decisionNote: input.note,
      })
      .where(eq(adjustments.id, locked.id));
    await recordAudit(tx, ctx, {
      action: 'reject',
      entityType: 'adjustment',
      entityId: locked.id,
      parent: parentOf(locked),
      summary: `Rejected ${ADJUSTMENT_KIND_LABELS[locked.kind].toLowerCase()} asked by ${locked.createdByName} on ${locked.subject} for ${locked.payerName}: ${input.note}`,
      changes: [
        { field: 'status', before: 'pending', after: 'rejected' },
        { field: 'decisionNote', before: null, after: input.note },
      ],
    });
  });
  invalidateReads(ctx.deps);
  return getAdjustment(ctx, input.id);
}

const parentOf = (a: AdjustmentRow) =>
  a.enrollmentId
    ? { type: 'enrollment' as const, id: a.enrollmentId }
    : a.bookingId
      ? { type: 'booking' as const, id: a.bookingId }
      : undefined;

/**
 * Revoking gives each item back what this adjustment took off it (so later adjustments stay as
 * they are), marks it revoked with who, when and why, and records it. A second revoke is harmless.
 */
export async function revokeAdjustment(ctx: ServiceContext, input: TRevokeAdjustmentInput): Promise<TAdjustment> {
  assertDecider(ctx);
  const a = await findAdjustment(ctx, input.id);
  let changed = false;
  await ctx.db.transaction(async (tx) => {
    const { target, locked } = await lockForDecision(tx, a);
    if (locked.status === 'revoked') return;
    if (locked.status === 'pending') throw new AppError('CONFLICT', ADJUSTMENT_MESSAGES.revokePending);
    if (locked.status === 'rejected') throw new AppError('CONFLICT', ADJUSTMENT_MESSAGES.revokeRejected);
    const items = await tx.select().from(adjustmentItems).where(eq(adjustmentItems.adjustmentId, locked.id));
    const now = new Date();
    const restored: string[] = [];
    if (target) {
      assertChangeable(target);
      for (const i of items) {
        const back = await changeItemAmount(
          tx,
          target,
          { kind: i.kind, installmentId: i.enrollmentInstallmentId ?? i.bookingInstallmentId },
          i.before - i.after,
          now,
        );
        if (back)
          restored.push(
            `${itemName({ kind: i.kind, number: i.installmentNumber })}: ${fromMinor(back.before)} → ${fromMinor(back.after)}`,
          );
      }
      await refreshTarget(tx, target, today(ctx));
    }
    await tx
      .update(adjustments)
      .set({
        status: 'revoked',
        revokedAt: now,
        revokedById: ctx.actor.id,
        revokedByName: ctx.actor.username,
        revokeReason: input.reason,
      })
      .where(eq(adjustments.id, locked.id));
    await recordAudit(tx, ctx, {
      action: 'revoke',
      entityType: 'adjustment',
      entityId: locked.id,
      parent: parentOf(locked),
      summary: `Revoked ${ADJUSTMENT_KIND_LABELS[locked.kind].toLowerCase()} of ${formatMoney(fromMinor(locked.total), locked.currency)} on ${locked.subject} for ${locked.payerName}: ${input.reason}`,
      changes: [
        { field: 'status', before: 'applied', after: 'revoked' },
        { field: 'revokeReason', before: null, after: input.reason },
        { field: 'items', before: null, after: restored },
      ],
    });
    changed = true;
  });
  if (changed) invalidateReads(ctx.deps);
  return getAdjustment(ctx, input.id);
}

/** Whether an enrolment has adjustments in force: its payment plan cannot be rebuilt under them. */
export async function hasAppliedAdjustments(db: Db, enrollmentId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: adjustments.id })
    .from(adjustments)
    .where(and(eq(adjustments.enrollmentId, enrollmentId), eq(adjustments.status, 'applied')))
    .limit(1);
  return Boolean(row);
}
