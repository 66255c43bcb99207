/**
 * Discounts, scholarships and write-offs (docs/payments.md#adjustments): each is an entry of its
 * own with who, when and why and what each item's amount was before and after. The items' amounts
 * change in the same transaction, under the record's lock, so every reader of what is owed (the
 * statuses, overdue, the dashboard, statements, receivables, reports) reads the adjusted figures.
 */
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { firstRow } from '../../db/rows';
import { adjustmentItems, adjustments, scholarshipSchemes, settings } from '../../db/schema';
import { AppError } from '../../errors';
import { formatMoney } from '../../../shared/format';
import { fromMinor, toMinor } from '../../../shared/money';
import { isAdmin } from '../../../shared/roles';
import { ADJUSTMENT_KIND_LABELS } from '../../../shared/adjustment-kinds';
import {
  ADJUSTMENT_MESSAGES,
  type TAdjustment,
  type TAdjustmentBody,
  type TAdjustmentPreview,
  type TAdjustmentSettingsInput,
  type TCreateAdjustmentInput,
} from '@shared/schemas/adjustments';
import { recordAudit } from '../audit/audit.service';
import { assertRecordInScope } from '../branch-scope';
import type { ServiceContext, SystemContext } from '../context';
import { isUuid } from '../ids';
import { invalidateReads } from '../read-cache';
import { saveSettings } from '../settings/settings.service';
import { targetName } from '../payments/ledger-audit';
import { itemsOf } from '../payments/ledger-targets';
import { planAdjustment, type PlanRequest } from './adjustments.plan';
import {
  applyPlan,
  assertChangeable,
  lockTarget,
  notFoundOf,
  planLines,
  planRows,
  refOf,
  sumOf,
  today,
} from './adjustments.steps';
import { getAdjustment } from './adjustments.read';

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

export { adjustmentsOf, getAdjustment, listAdjustments } from './adjustments.read';
export { approveAdjustment, rejectAdjustment, revokeAdjustment } from './adjustments.decisions';

/** Whether an enrolment has adjustments in force: its payment plan cannot be rebuilt under them. */
export async function hasAppliedAdjustments(db: Db, enrollmentId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: adjustments.id })
    .from(adjustments)
    .where(and(eq(adjustments.enrollmentId, enrollmentId), eq(adjustments.status, 'applied')))
    .limit(1);
  return Boolean(row);
}
