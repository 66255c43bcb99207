/**
 * The audit entries of treatment bookings (docs/audit.md#what-is-recorded): the booking itself,
 * its session count and session notes, and the whole-booking payment update. Installment toggles
 * are the ledger's (payments/ledger-audit.ts). Each part names the booking as parent, so the
 * booking's History shows it.
 */
import type { Db } from '../../db/client';
import type { treatmentBookings } from '../../db/schema';
import { fromMinor } from '../../../shared/money';
import type { AuditChange } from '../../../shared/audit';
import { fieldChanges, recordAudit, type AuditContext } from '../audit/audit.service';
import { lockBookingTarget, type LedgerTarget } from '../payments/ledger-targets';
import { targetName } from '../payments/ledger-audit';

type BookingRow = typeof treatmentBookings.$inferSelect;

/** The booking as a person reads it: names beside ids, money as decimals. */
export async function bookingView(tx: Db, b: BookingRow) {
  const t = await lockBookingTarget(tx, b.id);
  return {
    target: t,
    view: {
      customer: t.payerName,
      treatment: t.subject,
      userType: b.userType,
      paymentType: b.paymentType,
      price: fromMinor(b.price),
      currency: b.currency,
      maxSessions: b.maxSessions,
      sessionsCompleted: b.sessionsCompleted,
      periodStart: b.periodStart,
      periodEnd: b.periodEnd,
      bookedOn: b.bookedOn,
      status: b.status,
      paymentStatus: b.paymentStatus,
    },
  };
}
type BookingView = Awaited<ReturnType<typeof bookingView>>;

const asParent = (t: LedgerTarget) => ({ type: 'booking' as const, id: t.id });

export async function recordBooked(tx: Db, ctx: AuditContext, b: BookingRow): Promise<void> {
  const { target, view } = await bookingView(tx, b);
  await recordAudit(tx, ctx, {
    action: 'create',
    entityType: 'booking',
    entityId: b.id,
    summary: `Booked ${target.subject} for ${target.payerName} (${b.userType}, ${b.paymentType === 'full' ? 'full payment' : 'installments'})`,
    changes: fieldChanges(null, view),
  });
}

export async function recordCancelled(tx: Db, ctx: AuditContext, before: BookingView, b: BookingRow): Promise<void> {
  await recordAudit(tx, ctx, {
    action: 'cancel',
    entityType: 'booking',
    entityId: b.id,
    summary: `Cancelled the booking of ${targetName(before.target)}`,
    changes: [
      { field: 'status', before: before.view.status, after: b.status },
      { field: 'cancelledAt', before: null, after: b.cancelledAt?.toISOString() ?? null },
    ],
  });
}

/** Call before the delete: the entry names what went. */
export async function recordBookingDeleted(tx: Db, ctx: AuditContext, before: BookingView, id: string) {
  await recordAudit(tx, ctx, {
    action: 'delete',
    entityType: 'booking',
    entityId: id,
    summary: `Deleted the booking of ${targetName(before.target)}`,
    changes: fieldChanges(before.view, null),
  });
}

/** `Set the completed sessions of Massage for customer1 from 2 to 3 (of 5)`. */
export async function recordSessions(tx: Db, ctx: AuditContext, b: BookingRow, from: number, to: number) {
  const t = await lockBookingTarget(tx, b.id);
  await recordAudit(tx, ctx, {
    action: 'update',
    entityType: 'session',
    // One count per booking: the booking's id names it.
    entityId: b.id,
    parent: asParent(t),
    summary: `Set the completed sessions of ${targetName(t)} from ${from} to ${to} (of ${b.maxSessions})`,
    changes: [{ field: 'sessionsCompleted', before: from, after: to }],
  });
}

type Note = { note: string; date: Date | null } | undefined;

/** A note written, edited or cleared: `Wrote the note of session 2 of Massage for customer1`. */
export async function recordNote(
  tx: Db,
  ctx: AuditContext,
  b: BookingRow,
  sessionNumber: number,
  before: Note,
  after: Note,
) {
  const t = await lockBookingTarget(tx, b.id);
  const action = !before ? 'create' : !after ? 'delete' : 'update';
  const verb = { create: 'Wrote', update: 'Edited', delete: 'Cleared' }[action];
  const shape = (n: Note) => (n ? { note: n.note, date: n.date } : null);
  await recordAudit(tx, ctx, {
    action,
    entityType: 'session_note',
    // A note has no id of its own: its booking and session number name it.
    entityId: `${b.id}/${sessionNumber}`,
    parent: asParent(t),
    summary: `${verb} the note of session ${sessionNumber} of ${targetName(t)}`,
    changes: fieldChanges(shape(before), shape(after)),
  });
}

/** PUT /api/bookings/payment: several installments in one call are one entry on the booking. */
export async function recordPaymentUpdate(
  tx: Db,
  ctx: AuditContext,
  t: LedgerTarget,
  toggled: Array<{ number: number | null; isPaid: boolean; receipts: string[] }>,
) {
  if (toggled.length === 0) return;
  const allPaid = toggled.every((x) => x.isPaid);
  const allUnpaid = toggled.every((x) => !x.isPaid);
  const numbers = toggled.map((x) => x.number ?? '?');
  const which =
    numbers.length === 1
      ? `installment ${numbers[0]}`
      : `installments ${numbers.slice(0, -1).join(', ')} and ${numbers.at(-1)}`;
  const changes: AuditChange[] = toggled.flatMap((x) => [
    { field: `installment ${x.number ?? '?'}.isPaid`, before: !x.isPaid, after: x.isPaid },
    x.isPaid
      ? { field: `installment ${x.number ?? '?'}.receipt`, before: null, after: x.receipts.join(', ') }
      : { field: `installment ${x.number ?? '?'}.voidedReceipts`, before: x.receipts.join(', '), after: null },
  ]);
  await recordAudit(tx, ctx, {
    action: allPaid ? 'mark_paid' : allUnpaid ? 'mark_unpaid' : 'update',
    entityType: 'booking',
    entityId: t.id,
    summary: allPaid
      ? `Marked ${which} of ${targetName(t)} as paid`
      : allUnpaid
        ? `Marked ${which} of ${targetName(t)} as unpaid`
        : `Updated the payments of ${targetName(t)}: ${toggled.map((x) => `installment ${x.number ?? '?'} ${x.isPaid ? 'paid' : 'unpaid'}`).join(', ')}`,
    changes,
  });
}
