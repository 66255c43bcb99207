import { describe, expect, it } from 'vitest';
import { enrollmentDisplayStatus } from './enrollment-status';

const paid = { isPaid: true };
const unpaid = { isPaid: false };

describe('enrollmentDisplayStatus', () => {
  it('is Pending Payment while nothing at all is paid', () => {
    expect(
      enrollmentDisplayStatus({
        status: 'Active',
        admissionFeePaid: false,
        admissionFee: 5000,
        installments: [unpaid, unpaid],
      }),
    ).toBe('Pending Payment');
    expect(
      enrollmentDisplayStatus({ status: 'Active', admissionFeePaid: false, admissionFee: 0, installments: [unpaid] }),
    ).toBe('Pending Payment');
  });

  it('is Active (Partial) once the admission fee or any installment is paid, but not all', () => {
    expect(
      enrollmentDisplayStatus({ status: 'Active', admissionFeePaid: true, admissionFee: 5000, installments: [unpaid] }),
    ).toBe('Active (Partial)');
    expect(
      enrollmentDisplayStatus({
        status: 'Active',
        admissionFeePaid: false,
        admissionFee: 5000,
        installments: [paid, paid],
      }),
    ).toBe('Active (Partial)');
    expect(
      enrollmentDisplayStatus({
        status: 'Active',
        admissionFeePaid: false,
        admissionFee: 0,
        installments: [paid, unpaid],
      }),
    ).toBe('Active (Partial)');
  });

  it('is Active (Paid) when everything is paid (or there are no installments) and not yet completed', () => {
    expect(
      enrollmentDisplayStatus({
        status: 'Active',
        admissionFeePaid: true,
        admissionFee: 5000,
        installments: [paid, paid],
      }),
    ).toBe('Active (Paid)');
    expect(enrollmentDisplayStatus({ status: 'Active', admissionFeePaid: true, installments: [] })).toBe(
      'Active (Paid)',
    );
    // A zero admission fee has nothing to pay.
    expect(
      enrollmentDisplayStatus({ status: 'Active', admissionFeePaid: false, admissionFee: 0, installments: [paid] }),
    ).toBe('Active (Paid)');
  });

  it('is Completed only when fully paid and the status is Completed (any casing)', () => {
    expect(
      enrollmentDisplayStatus({
        status: 'Completed',
        admissionFeePaid: true,
        admissionFee: 5000,
        installments: [paid],
      }),
    ).toBe('Completed');
    expect(enrollmentDisplayStatus({ status: 'completed', admissionFeePaid: true, installments: [] })).toBe(
      'Completed',
    );
    expect(
      enrollmentDisplayStatus({
        status: 'Completed',
        admissionFeePaid: true,
        admissionFee: 5000,
        installments: [unpaid],
      }),
    ).toBe('Active (Partial)');
  });
});
