import { z } from 'zod';
import { ZEmailDelivery, zDayOut, zMoneyOut } from '@shared/schemas/output';
import { zId, zOptionalDay } from '@shared/schemas/primitives';

/** The statement's period (docs/users.md#statement): both bounds optional, From never after To. */
export const ZStatementRange = z
  .object({ from: zOptionalDay('From'), to: zOptionalDay('To') })
  .refine((r) => !r.from || !r.to || r.from <= r.to, { message: 'From must be on or before To.', path: ['to'] });
export type TStatementRange = z.infer<typeof ZStatementRange>;

export const ZStatementInput = z
  .object({ userId: zId('User'), from: zOptionalDay('From'), to: zOptionalDay('To') })
  .refine((r) => !r.from || !r.to || r.from <= r.to, { message: 'From must be on or before To.', path: ['to'] });
export type TStatementInput = z.infer<typeof ZStatementInput>;

export const STATEMENT_LINE_KINDS = ['charge', 'payment', 'void', 'adjustment', 'refund'] as const;
/** A line's kind as the statement screen and its PDF print it. */
export const STATEMENT_KIND_LABELS: Record<(typeof STATEMENT_LINE_KINDS)[number], string> = {
  charge: 'Charge',
  payment: 'Payment',
  void: 'Void',
  adjustment: 'Adjustment',
  refund: 'Refund',
};

/**
 * One line: charges positive, payments negative, a void positive again; an adjustment negative (and
 * positive again when revoked), a refund positive; balance runs per currency.
 */
export const ZStatementLine = z.object({
  date: zDayOut,
  kind: z.enum(STATEMENT_LINE_KINDS),
  description: z.string(),
  receiptNumber: z.string().optional(),
  currency: z.string(),
  amount: zMoneyOut,
  balance: zMoneyOut,
});
export type TStatementLine = z.infer<typeof ZStatementLine>;

export const ZStatementTotal = z.object({
  currency: z.string(),
  charged: zMoneyOut,
  paid: zMoneyOut,
  balance: zMoneyOut,
  overdue: zMoneyOut,
});

/** GET /api/users/{id}/statement (docs/users.md#statement). */
export const ZStatement = z.object({
  person: z.object({ _id: z.string(), fullName: z.string(), email: z.string() }),
  totals: z.array(ZStatementTotal),
  lines: z.array(ZStatementLine),
});
export type TStatement = z.infer<typeof ZStatement>;

export const ZStatementQueued = z.object({ message: z.string(), jobId: z.string(), delivery: ZEmailDelivery });
export type TStatementQueued = z.infer<typeof ZStatementQueued>;

/** How many lines one statement answers at most; a longer one asks for a shorter period. */
export const STATEMENT_MAX_LINES = 5000;
