import { z } from 'zod';
import { hasAtMostTwoDecimals } from '@shared/money';
import { MAX_MONEY, zId, zOptionalDay, zOptionalText, zText } from '@shared/schemas/primitives';
import { zCountOut, zInstantOut, zMoneyOut } from '@shared/schemas/output';

/** docs/payments.md#tills: the user-facing texts of the till rules. */
export const TILL_MESSAGES = {
  amount: 'Each amount must be 0 or more with at most two decimals.',
  currency: 'Currency must be a 3-letter currency code, such as LKR or USD.',
  twice: 'Each currency can be listed only once.',
  noteNeeded: 'The counted cash differs from the expected amount: add a note saying why.',
  alreadyOpen: 'You already have an open till at this branch. Close it before opening another.',
  notFound: 'Till not found.',
  alreadyClosed: 'This till is already closed.',
  notYours: 'Only the cashier who opened this till or an admin can close it.',
  required: 'Open a till at this branch before taking a cash payment.',
  branchNotFound: 'Branch not found.',
} as const;

const currency = zText('Currency', { message: TILL_MESSAGES.currency })
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{3}$/, TILL_MESSAGES.currency);

/** Cash in a drawer: zero or more, two decimals at most. */
const amount = z
  .number({ error: TILL_MESSAGES.amount })
  .refine((n) => Number.isFinite(n) && n >= 0 && n <= MAX_MONEY && hasAtMostTwoDecimals(n), TILL_MESSAGES.amount);

/** Amounts per currency, each currency at most once. */
const zPerCurrency = (label: string) =>
  z
    .array(z.object({ currency, amount }), { error: `${label} must be a list of { currency, amount }.` })
    .max(10, `${label} can name at most 10 currencies.`)
    .refine((rows) => new Set(rows.map((r) => r.currency)).size === rows.length, TILL_MESSAGES.twice);

export const ZOpenTillInput = z.object({
  branchId: zId('Branch'),
  openingFloat: zPerCurrency('Opening float').default([]),
});
export type TOpenTillInput = z.infer<typeof ZOpenTillInput>;

export const ZCloseTillBody = z.object({
  counted: zPerCurrency('Counted').refine((rows) => rows.length > 0, 'Enter the counted cash.'),
  note: zOptionalText('Note', 1000),
});
export const ZCloseTillInput = ZCloseTillBody.extend({ id: zId('Till') });
export type TCloseTillInput = z.infer<typeof ZCloseTillInput>;

export const ZListTillsInput = z
  .object({
    branchId: zOptionalText('Branch', 200),
    from: zOptionalDay('From'),
    to: zOptionalDay('To'),
    status: z.enum(['open', 'closed'], { error: 'Status must be open or closed.' }).optional(),
    /** Only the caller's own tills (the Till card). */
    mine: z.boolean().optional(),
    page: z.number().int().min(1, 'Page must be at least 1.').max(10_000).default(1),
    pageSize: z.number().int().min(1).max(200, 'Rows per page must be between 1 and 200.').default(50),
  })
  .refine((f) => !f.from || !f.to || f.from <= f.to, { message: 'From must be on or before To.', path: ['to'] });
export type TListTillsInput = z.infer<typeof ZListTillsInput>;

/** GET /api/tills: the same filters as query strings. */
export const ZListTillsQuery = z.object({
  branchId: zOptionalText('Branch', 200),
  from: z.string().optional(),
  to: z.string().optional(),
  status: z.string().optional(),
  page: z.coerce.number({ error: 'Page must be a whole number.' }).int('Page must be a whole number.').optional(),
  limit: z.coerce
    .number({ error: 'Rows per page must be a whole number.' })
    .int('Rows per page must be a whole number.')
    .optional(),
});

export const ZTillIdInput = z.object({ id: zId('Till') });

export const ZTillSettingsInput = z.object({
  tillRequired: z.boolean({ message: 'Choose whether a till is required before taking cash.' }),
});
export type TTillSettingsInput = z.infer<typeof ZTillSettingsInput>;

// ------------------------------------------------------------------ answers

const ZAmountOut = z.object({ currency: z.string(), amount: zMoneyOut });
const ZKept = z.object({ _id: z.string().nullable(), name: z.string() });
const ZKeptUser = z.object({ _id: z.string().nullable(), username: z.string() });

/** A till as the API answers it (docs/payments.md#tills). */
export const ZTill = z.object({
  _id: z.string(),
  branch: ZKept,
  /** `fullName` as the account is named now; null once it is deleted. */
  cashier: ZKeptUser.extend({ fullName: z.string().nullable() }),
  openedAt: zInstantOut,
  openingDay: z.iso.date(),
  openingFloat: z.array(ZAmountOut),
  status: z.enum(['open', 'closed']),
  /** Float plus the cash taken less the cash refunded so far; on a closed till, what was expected when it closed. */
  expected: z.array(ZAmountOut),
  /** Cash payments that went into the till (valid ones). */
  payments: zCountOut,
  /** Cash refunds paid out of it (docs/payments.md#refunds). */
  refunds: zCountOut,
  closedAt: zInstantOut.nullable(),
  closedBy: ZKeptUser.extend({ fullName: z.string().nullable() }).nullable(),
  counted: z.array(ZAmountOut).nullable(),
  /** counted − expected, per currency. */
  difference: z.array(ZAmountOut).nullable(),
  note: z.string().nullable(),
});
export type TTill = z.infer<typeof ZTill>;

export const ZTillList = z.object({
  data: z.array(ZTill),
  total: zCountOut,
  page: z.number().int(),
});
export type TTillList = z.infer<typeof ZTillList>;

export const ZTillSettings = z.object({ tillRequired: z.boolean() });
