/**
 * The installment arithmetic enrolments and treatment bookings share (docs/money.md). Each domain
 * keeps its own rules on top: bookings derive a payment status, enrolments track completion.
 */
import { sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { addToDate } from '../../shared/calendar';
import { fromMinor, splitMinor } from '../../shared/money';
import { childRows } from '../db/child-rows';
import type { bookingInstallments, enrollmentInstallments } from '../db/schema';
import { iso } from './ids';
import type { TInstallment } from '@shared/schemas/installments.output';

export type PaymentType = 'full' | 'installment';

export interface ScheduledInstallment {
  seq: number;
  /** minor units */
  amount: number;
  /** YYYY-MM-DD */
  dueDate: string;
  isPaid: false;
}

/**
 * `full` is one part of the whole total due on the start date; `installment` is `count` parts
 * (equal, the remainder on the last), part i due i months after the start (clamped to the
 * month's last day).
 */
export function buildInstallmentSchedule(
  totalMinor: number,
  paymentType: PaymentType,
  count: number,
  startDate: string,
): ScheduledInstallment[] {
  const parts = paymentType === 'full' ? [totalMinor] : splitMinor(totalMinor, count);
  return parts.map((amount, seq) => ({ seq, amount, dueDate: addToDate(startDate, { months: seq }), isPaid: false }));
}

interface InstallmentRowLike {
  id: string;
  amount: number;
  dueDate: string;
  amountPaid: number;
  isPaid: boolean;
  paidAt: Date | null;
}

/**
 * An installment as the API shows it: money as a decimal number, dates as strings, and overdue
 * when unpaid and due before `todayIso`, the institute's calendar day (docs/money.md#overdue).
 * One object literal: every page of enrolments or bookings makes one per instalment. Typed as the
 * contract, so a field missing on either side fails the build.
 */
export function toInstallmentDto(i: InstallmentRowLike, todayIso: string): TInstallment {
  return {
    _id: i.id,
    amount: fromMinor(i.amount),
    dueDate: i.dueDate,
    isPaid: i.isPaid,
    paidAt: iso(i.paidAt),
    /** What the ledger holds against it (docs/payments.md); equals amount once paid. */
    amountPaid: fromMinor(i.amountPaid),
    isOverdue: !i.isPaid && i.dueDate < todayIso,
  };
}

/**
 * An enrolment's or a booking's instalments as one value of its own row, in sequence order, with
 * the fields `toInstallmentDto` reads (docs/performance.md#children-in-the-records-statement).
 * `owner` is the instalment table's column naming the record; `record` the record's id.
 */
export function installmentsInRow(
  t: typeof enrollmentInstallments | typeof bookingInstallments,
  owner: PgColumn,
  record: PgColumn,
) {
  return childRows(
    t,
    {
      id: t.id,
      seq: t.seq,
      amount: t.amount,
      dueDate: t.dueDate,
      amountPaid: t.amountPaid,
      isPaid: t.isPaid,
      paidAt: t.paidAt,
    },
    sql`${owner} = ${record}`,
    [t.seq],
  );
}
