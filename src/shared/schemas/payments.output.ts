import { z } from 'zod';
import { ALLOCATION_KINDS, PAYMENT_METHODS } from '@shared/payment-kinds';
import { ZEmailDelivery, zCountOut, zDayOut, zInstantOut, zMoneyOut, zPageOf } from '@shared/schemas/output';

/** A name kept on the ledger row; the id is null once that user or branch is gone. */
const ZKeptUser = z.object({ _id: z.string().nullable(), username: z.string() });

/** Which fee or installment part of a payment went to (docs/payments.md#rest-paths). */
const ZAllocation = z.object({
  kind: z.enum(ALLOCATION_KINDS),
  // Absent (not null) when the allocation is not of that kind.
  installmentId: z.string().or(z.undefined()),
  enrollmentId: z.string().or(z.undefined()),
  bookingId: z.string().or(z.undefined()),
  installmentNumber: z.number().int().nullable(),
  dueDate: zDayOut.nullable(),
  amount: zMoneyOut,
});

/** A payment as the API answers it (docs/payments.md#rest-paths). */
export const ZPayment = z.object({
  _id: z.string(),
  receiptNumber: z.string(),
  amount: zMoneyOut,
  currency: z.string(),
  method: z.enum(PAYMENT_METHODS),
  reference: z.string().nullable(),
  note: z.string().nullable(),
  receivedAt: zInstantOut,
  /** `fullName`: the cashier's when the payment was taken (null when not known). */
  receivedBy: ZKeptUser.extend({ fullName: z.string().nullable() }).nullable(),
  status: z.enum(['valid', 'void']),
  voidedAt: zInstantOut.nullable(),
  voidedBy: ZKeptUser.nullable(),
  voidReason: z.string().nullable(),
  branch: z.object({ _id: z.string().nullable(), name: z.string() }).nullable(),
  /** `fullName` beyond the kept name: the one the payment was taken under (else the account's now, null once gone). */
  payer: z.object({
    _id: z.string().nullable(),
    username: z.string(),
    email: z.string().nullable(),
    fullName: z.string().nullable(),
  }),
  enrollmentId: z.string().nullable(),
  bookingId: z.string().nullable(),
  subject: z.string(),
  allocations: z.array(ZAllocation),
  createdAt: zInstantOut,
  /** What has been given back on it (docs/payments.md#refunds); the payment itself stays `valid`. */
  refundedAmount: zMoneyOut,
});
export type TPayment = z.infer<typeof ZPayment>;
export const ZPaymentList = z.array(ZPayment);

const ZCurrencyTotal = z.object({ currency: z.string(), amount: zMoneyOut });
const ZCurrencyAmount = ZCurrencyTotal.extend({ count: zCountOut });

/** A page of the ledger with the valid payments' totals per currency over every page. */
export const ZPaymentPage = zPageOf(ZPayment).extend({ totals: z.array(ZCurrencyTotal) });
/** REST GET /api/payments: the documented `{ data, total, page, totals }`. */
export const ZPaymentData = z.object({
  data: ZPaymentList,
  total: zCountOut,
  page: z.number().int(),
  totals: z.array(ZCurrencyTotal),
});

export const ZReceiptQueued = z.object({ message: z.string(), jobId: z.string(), delivery: ZEmailDelivery });
export type TReceiptQueued = z.infer<typeof ZReceiptQueued>;

/** The cash-up (docs/payments.md#cash-up): valid payments grouped by day, branch, cashier and method. */
export const ZCashUp = z.object({
  from: zDayOut,
  to: zDayOut,
  branchId: z.string().nullable(),
  rows: z.array(
    z.object({
      date: zDayOut,
      branch: z.object({ _id: z.string().nullable(), name: z.string() }).nullable(),
      /** Beyond the kept username: the account's full name now, null once it is deleted. */
      cashier: ZKeptUser.extend({ fullName: z.string().nullable() }).nullable(),
      method: z.enum(PAYMENT_METHODS),
      currency: z.string(),
      amount: zMoneyOut,
      count: zCountOut,
    }),
  ),
  totals: z.array(ZCurrencyAmount),
  byMethod: z.array(ZCurrencyAmount.extend({ method: z.enum(PAYMENT_METHODS) })),
  voids: z.array(
    z.object({
      _id: z.string(),
      receiptNumber: z.string(),
      amount: zMoneyOut,
      currency: z.string(),
      receivedAt: zInstantOut,
      voidedAt: zInstantOut.nullable(),
      voidedBy: z.string().nullable(),
      voidReason: z.string().nullable(),
    }),
  ),
  /** Money given back in the period, by the day it was refunded (docs/payments.md#refunds). */
  refunds: z.array(ZCurrencyAmount.extend({ method: z.enum(PAYMENT_METHODS) })),
  /** Collected less refunded, per method and currency. */
  net: z.array(ZCurrencyTotal.extend({ method: z.enum(PAYMENT_METHODS) })),
});
export type TCashUp = z.infer<typeof ZCashUp>;

/** Money at a glance (docs/payments.md#dashboard). */
export const ZDashboard = z.object({
  branchId: z.string().nullable(),
  today: zDayOut,
  collectedToday: z.array(ZCurrencyAmount),
  collectedThisMonth: z.array(ZCurrencyAmount),
  /** Refunds given today and this month, and what was collected less them (docs/payments.md#refunds). */
  refundedToday: z.array(ZCurrencyAmount),
  refundedThisMonth: z.array(ZCurrencyAmount),
  netToday: z.array(ZCurrencyTotal),
  netThisMonth: z.array(ZCurrencyTotal),
  outstanding: z.array(ZCurrencyAmount),
  overdue: z.array(ZCurrencyAmount),
  dueNext7Days: z.array(ZCurrencyAmount),
  monthly: z.array(z.object({ month: z.string(), amounts: z.array(ZCurrencyTotal) })),
  mostOverdue: z.array(
    z.object({
      kind: z.enum(['enrollment', 'booking']),
      id: z.string(),
      payer: z.string(),
      /** Beyond the documented username: the payer's full name, which the screen shows first (null once deleted). */
      payerFullName: z.string().nullable(),
      subject: z.string(),
      currency: z.string(),
      overdue: zMoneyOut,
      oldestDueDate: zDayOut,
    }),
  ),
});
export type TDashboard = z.infer<typeof ZDashboard>;
