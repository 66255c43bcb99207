import { z } from 'zod';
import { zDayOut, zInstantOut, zMoneyOut } from '@shared/schemas/output';

/**
 * One installment of an enrolment or a treatment booking (docs/money.md): money as a decimal,
 * overdue decided on the server in TIME_ZONE (docs/money.md#overdue).
 */
export const ZInstallment = z.object({
  _id: z.string(),
  amount: zMoneyOut,
  dueDate: zDayOut,
  isPaid: z.boolean(),
  paidAt: zInstantOut.nullable(),
  isOverdue: z.boolean(),
  /** What the payments ledger holds against it (docs/payments.md). */
  amountPaid: zMoneyOut,
});
export type TInstallment = z.infer<typeof ZInstallment>;
