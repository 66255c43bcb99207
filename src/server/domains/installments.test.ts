import { describe, expect, it } from 'vitest';
import { buildInstallmentSchedule, toInstallmentDto } from './installments';

describe('buildInstallmentSchedule', () => {
  it('makes one part of the whole total due on the start date for a full payment', () => {
    expect(buildInstallmentSchedule(150_000, 'full', 3, '2025-03-15')).toEqual([
      { seq: 0, amount: 150_000, dueDate: '2025-03-15', isPaid: false },
    ]);
  });

  it('splits into monthly parts with the remainder on the last, summing to the total', () => {
    const parts = buildInstallmentSchedule(100_000, 'installment', 3, '2025-03-15');
    expect(parts).toEqual([
      { seq: 0, amount: 33_333, dueDate: '2025-03-15', isPaid: false },
      { seq: 1, amount: 33_333, dueDate: '2025-04-15', isPaid: false },
      { seq: 2, amount: 33_334, dueDate: '2025-05-15', isPaid: false },
    ]);
    expect(parts.reduce((s, p) => s + p.amount, 0)).toBe(100_000);
  });

  it('clamps due dates to the end of shorter months and rolls over the year', () => {
    const due = buildInstallmentSchedule(400, 'installment', 4, '2025-11-30').map((p) => p.dueDate);
    expect(due).toEqual(['2025-11-30', '2025-12-30', '2026-01-30', '2026-02-28']);
  });

  it('refuses a plan of zero parts', () => {
    expect(() => buildInstallmentSchedule(100, 'installment', 0, '2025-01-01')).toThrow();
  });
});

describe('toInstallmentDto', () => {
  it('speaks decimal money and ISO dates', () => {
    const paidAt = new Date('2025-04-01T10:00:00Z');
    expect(
      toInstallmentDto(
        { id: 'a', amount: 12_345, dueDate: '2025-04-15', amountPaid: 12_345, isPaid: true, paidAt },
        '2025-06-01',
      ),
    ).toEqual({
      _id: 'a',
      amount: 123.45,
      dueDate: '2025-04-15',
      isPaid: true,
      paidAt: '2025-04-01T10:00:00.000Z',
      amountPaid: 123.45,
      isOverdue: false,
    });
    expect(
      toInstallmentDto(
        { id: 'b', amount: 0, dueDate: '2025-05-15', amountPaid: 0, isPaid: false, paidAt: null },
        '2025-06-01',
      ).paidAt,
    ).toBeNull();
  });

  it('is overdue only when unpaid and due before today', () => {
    const unpaid = { id: 'c', amount: 500, dueDate: '2025-05-15', amountPaid: 0, isPaid: false, paidAt: null };
    expect(toInstallmentDto(unpaid, '2025-05-16').isOverdue).toBe(true);
    expect(toInstallmentDto(unpaid, '2025-05-15').isOverdue).toBe(false);
    expect(toInstallmentDto({ ...unpaid, isPaid: true, amountPaid: 500 }, '2025-05-16').isOverdue).toBe(false);
  });
});
