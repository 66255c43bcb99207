import { describe, expect, it } from 'vitest';
import { addToDate, computePaymentStatus, paymentCompletionPercentage, progressColor, todayIn } from './booking-status';

const inst = (isPaid: boolean, dueDate: string) => ({ isPaid, dueDate });

describe('computePaymentStatus', () => {
  const today = '2025-03-10';
  it('is pending when nothing is paid and nothing is late', () => {
    expect(computePaymentStatus([inst(false, '2025-03-10'), inst(false, '2025-04-10')], today)).toBe('pending');
  });
  it('is partially_paid when some but not all are paid', () => {
    expect(computePaymentStatus([inst(true, '2025-03-10'), inst(false, '2025-04-10')], today)).toBe('partially_paid');
  });
  it('is paid when all are paid, even if their due dates passed', () => {
    expect(computePaymentStatus([inst(true, '2025-01-10'), inst(true, '2025-02-10')], today)).toBe('paid');
  });
  it('is overdue while an unpaid installment is past due, and only strictly before today', () => {
    expect(computePaymentStatus([inst(true, '2025-01-10'), inst(false, '2025-03-09')], today)).toBe('overdue');
    expect(computePaymentStatus([inst(false, '2025-03-10')], today)).toBe('pending');
  });
  it('uses the stored status when there are no installments', () => {
    expect(computePaymentStatus([], today)).toBe('pending');
    expect(computePaymentStatus([], today, 'paid')).toBe('paid');
  });
});

describe('payment progress', () => {
  it('is the share of paid installments, or 100/0 by status without installments', () => {
    expect(
      paymentCompletionPercentage([{ isPaid: true }, { isPaid: false }, { isPaid: false }], 'partially_paid'),
    ).toBe(33);
    expect(paymentCompletionPercentage([{ isPaid: true }], 'paid')).toBe(100);
    expect(paymentCompletionPercentage([], 'paid')).toBe(100);
    expect(paymentCompletionPercentage([], 'pending')).toBe(0);
  });
  it('is green at 100, orange above 0 and red at 0', () => {
    expect(progressColor(100)).toBe('green');
    expect(progressColor(1)).toBe('orange');
    expect(progressColor(0)).toBe('red');
  });
});

describe('dates', () => {
  it('adds months clamped to the month end, then weeks and days', () => {
    expect(addToDate('2025-01-31', { months: 1 })).toBe('2025-02-28');
    expect(addToDate('2024-01-31', { months: 1 })).toBe('2024-02-29');
    expect(addToDate('2025-11-15', { months: 3 })).toBe('2026-02-15');
    expect(addToDate('2025-03-01', { months: 1, weeks: 2, days: 3 })).toBe('2025-04-18');
    expect(addToDate('2025-12-31', { days: 1 })).toBe('2026-01-01');
  });
  it('reads today in the clinic time zone', () => {
    const lateUtc = new Date('2025-03-09T20:00:00Z');
    expect(todayIn('Asia/Colombo', lateUtc)).toBe('2025-03-10');
    expect(todayIn('UTC', lateUtc)).toBe('2025-03-09');
  });
});
