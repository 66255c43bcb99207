import fc from 'fast-check';
import type { TestApp } from './app';

/**
 * What the property tests of stored, trigger-kept columns (tests/integration/display-status.test.ts,
 * tests/integration/next-unpaid-due.test.ts) share: the money steps of a random sequence and how a
 * step's refusal is taken.
 */
export type MoneyStep =
  { kind: 'toggle'; index: number; isPaid: boolean } | { kind: 'pay'; share: number } | { kind: 'void'; which: number };

/** Toggle an instalment (index taken modulo their number), pay a share of what is owed, void a payment made. */
export const moneySteps = [
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('toggle' as const), index: fc.nat(3), isPaid: fc.boolean() }) },
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant('pay' as const), share: fc.double({ min: 0.05, max: 1.2, noNaN: true }) }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('void' as const), which: fc.nat(5) }) },
];

/**
 * A step's call, whose 4xx answer (voiding twice, completing an unpaid enrolment, changing a
 * cancelled booking) is part of the sequence: null then. A 5xx still fails the test.
 */
export async function refusedIs4xx<T>(call: Promise<T>): Promise<T | null> {
  try {
    return await call;
  } catch (err) {
    const status = (err as { data?: { httpStatus?: number } }).data?.httpStatus ?? 500;
    if (status >= 500) throw err;
    return null;
  }
}

/**
 * A `pay` step records a payment of its share of `owed` (at least 1) for the target; a `void`
 * step voids one of the payments made so far. The ids of the payments made are kept in `made`.
 */
export async function paymentStep(
  api: ReturnType<TestApp['trpc']>,
  s: Extract<MoneyStep, { kind: 'pay' | 'void' }>,
  target: { enrollmentId: string } | { bookingId: string },
  owed: number,
  made: string[],
): Promise<void> {
  if (s.kind === 'pay') {
    const paid = await refusedIs4xx(
      api.payments.record.mutate({ ...target, amount: Math.max(1, Math.round(owed * s.share)), method: 'cash' }),
    );
    if (paid) made.push(paid._id);
  } else if (made.length) {
    await refusedIs4xx(api.payments.void.mutate({ id: made[s.which % made.length]!, reason: 'test' }));
  }
}
