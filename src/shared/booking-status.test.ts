import { describe, expect, it } from 'vitest';
import { computePaymentStatus, paymentCompletionPercentage, progressColor } from './booking-status';

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

describe('part-payments', () => {
  it('a part of one installment paid makes a booking partially paid, not paid', () => {
    const today = '2025-03-10';
    expect(
      computePaymentStatus(
        [
          { isPaid: false, dueDate: '2025-03-10', amountPaid: 100 },
          { isPaid: false, dueDate: '2025-04-10', amountPaid: 0 },
        ],
        today,
      ),
    ).toBe('partially_paid');
  });
});
