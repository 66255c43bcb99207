/**
 * The audit entries of money (docs/audit.md#what-is-recorded): the paid/unpaid toggles of an
 * installment or admission fee, recorded payments, voids, receipt downloads and e-mails. Each is
 * written in the transaction of its change and names its enrolment or booking as parent, so that
 * record's History shows it.
 */
import type { Db } from '../../db/client';
import type { payments } from '../../db/schema';
import { formatMoney } from '../../../shared/format';
import { fromMinor } from '../../../shared/money';
import { PAYMENT_METHOD_LABELS, type PaymentMethod } from '../../../shared/payment-kinds';
import { recordAudit, type AuditContext } from '../audit/audit.service';
import type { Allocation } from './allocation';
import type { LedgerItem, LedgerTarget } from './ledger-targets';

type PaymentRow = typeof payments.$inferSelect;

/** `installment 2` or `the admission fee`. */
export function itemName(item: Pick<LedgerItem, 'kind' | 'number'>): string {
  return item.kind === 'admission_fee' ? 'the admission fee' : `installment ${item.number ?? '?'}`;
}

/** `Yoga Instruction for student1`: what a summary names the enrolment or booking by. */
export const targetName = (t: Pick<LedgerTarget, 'subject' | 'payerName'>) => `${t.subject} for ${t.payerName}`;

const parentOf = (t: Pick<LedgerTarget, 'kind' | 'id'>) => ({ type: t.kind, id: t.id });

const ENTITY_OF_ITEM = {
  admission_fee: 'admission_fee',
  enrollment_installment: 'installment',
  booking_installment: 'booking_installment',
} as const;

/**
 * `Marked installment 2 of Yoga Instruction for student1 as paid`: one toggle, with what the item
 * held before (`paidBefore`) and after (`item`, as `setItemPaid` left it) and the receipt it wrote
 * (paid) or voided (unpaid).
 */
export async function recordItemToggle(
  tx: Db,
  ctx: AuditContext,
  target: LedgerTarget,
  item: LedgerItem,
  paidBefore: number,
  isPaid: boolean,
  receipts: string[],
): Promise<void> {
  const receipt = receipts.join(', ') || null;
  const paidAfter = item.amountPaid;
  await recordAudit(tx, ctx, {
    action: isPaid ? 'mark_paid' : 'mark_unpaid',
    entityType: ENTITY_OF_ITEM[item.kind],
    // The admission fee has no row of its own: it is the enrolment's.
    entityId: item.installmentId ?? target.id,
    parent: parentOf(target),
    summary: `Marked ${itemName(item)} of ${targetName(target)} as ${isPaid ? 'paid' : 'unpaid'}`,
    changes: [
      { field: 'isPaid', before: paidBefore >= item.amount, after: paidAfter >= item.amount },
      { field: 'amountPaid', before: fromMinor(paidBefore), after: fromMinor(paidAfter) },
      isPaid
        ? { field: 'receipt', before: null, after: receipt }
        : { field: 'voidedReceipts', before: receipt, after: null },
    ],
  });
}

const allocationLine = (a: Allocation) => `${itemName(a.item)}: ${fromMinor(a.amount)}`;

/** `Recorded payment KAN-2026-000012 of Rs 5,000.00 (cash) for Yoga Instruction for student1`. */
export async function recordPaymentEntry(
  tx: Db,
  ctx: AuditContext,
  target: LedgerTarget,
  payment: {
    id: string;
    receiptNumber: string;
    allocations: Allocation[];
    method: PaymentMethod;
    reference?: string;
    note?: string;
    receivedAt: Date;
  },
): Promise<void> {
  const amount = fromMinor(payment.allocations.reduce((s, a) => s + a.amount, 0));
  await recordAudit(tx, ctx, {
    action: 'create',
    entityType: 'payment',
    entityId: payment.id,
    parent: parentOf(target),
    summary: `Recorded payment ${payment.receiptNumber} of ${formatMoney(amount, target.currency)} (${PAYMENT_METHOD_LABELS[payment.method]}) for ${targetName(target)}`,
    changes: [
      { field: 'receiptNumber', before: null, after: payment.receiptNumber },
      { field: 'amount', before: null, after: amount },
      { field: 'currency', before: null, after: target.currency },
      { field: 'method', before: null, after: payment.method },
      ...(payment.reference ? [{ field: 'reference', before: null, after: payment.reference }] : []),
      ...(payment.note ? [{ field: 'note', before: null, after: payment.note }] : []),
      { field: 'receivedAt', before: null, after: payment.receivedAt.toISOString() },
      { field: 'allocations', before: null, after: payment.allocations.map(allocationLine) },
    ],
  });
}

const paymentParent = (p: PaymentRow) =>
  p.enrollmentId
    ? { type: 'enrollment' as const, id: p.enrollmentId }
    : p.bookingId
      ? { type: 'booking' as const, id: p.bookingId }
      : undefined;

/** `Voided receipt KAN-2026-000012 (Rs 5,000.00) of student1 for Yoga Instruction: wrong amount`. */
export async function recordVoidEntry(tx: Db, ctx: AuditContext, p: PaymentRow, reason: string): Promise<void> {
  await recordAudit(tx, ctx, {
    action: 'void',
    entityType: 'payment',
    entityId: p.id,
    parent: paymentParent(p),
    summary: `Voided receipt ${p.receiptNumber} (${formatMoney(fromMinor(p.amount), p.currency)}) of ${p.payerName} for ${p.subject}: ${reason}`,
    changes: [
      { field: 'status', before: 'valid', after: 'void' },
      { field: 'voidReason', before: null, after: reason },
    ],
  });
}

/** A receipt downloaded as PDF, or queued to the payer's e-mail: an event that changes no record. */
export async function recordReceiptEvent(
  db: Db,
  ctx: AuditContext,
  p: PaymentRow,
  event: { kind: 'download' } | { kind: 'email'; to: string },
): Promise<void> {
  await recordAudit(db, ctx, {
    action: event.kind,
    entityType: 'receipt',
    entityId: p.id,
    parent: paymentParent(p),
    summary:
      event.kind === 'download'
        ? `Downloaded receipt ${p.receiptNumber} of ${p.payerName} for ${p.subject}`
        : `E-mailed receipt ${p.receiptNumber} to ${event.to}`,
    changes: event.kind === 'email' ? [{ field: 'to', before: null, after: event.to }] : [],
  });
}
