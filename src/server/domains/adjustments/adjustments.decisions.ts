/**
 * Deciding and revoking (docs/payments.md#approval): an admin approves a pending request (planned
 * again on what is owed now) or rejects it with a note, and any applied adjustment can be revoked.
 */
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { adjustmentItems, adjustments } from '../../db/schema';
import { AppError } from '../../errors';
import { formatMoney } from '../../../shared/format';
import { fromMinor } from '../../../shared/money';
import { isAdmin } from '../../../shared/roles';
import { ADJUSTMENT_KIND_LABELS } from '../../../shared/adjustment-kinds';
import {
  ADJUSTMENT_MESSAGES,
  type TAdjustment,
  type TDecideAdjustmentInput,
  type TRevokeAdjustmentInput,
} from '@shared/schemas/adjustments';
import { recordAudit } from '../audit/audit.service';
import type { ServiceContext } from '../context';
import { invalidateReads } from '../read-cache';
import { changeItemAmount, refreshTarget } from '../payments/ledger-items';
import { itemName, targetName } from '../payments/ledger-audit';
import { itemsOf } from '../payments/ledger-targets';
import { planAdjustment } from './adjustments.plan';
import {
  applyPlan,
  assertChangeable,
  lockTarget,
  planLines,
  storedRequest,
  sumOf,
  today,
  type AdjustmentRow,
  type RecordRef,
} from './adjustments.steps';
import { findAdjustment, getAdjustment } from './adjustments.read';

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
