import { z } from 'zod';
import { hasAtMostTwoDecimals } from '@shared/money';
import { ADJUSTMENT_KINDS, ADJUSTMENT_STATUSES } from '@shared/adjustment-kinds';
import { PAYMENT_METHODS } from '@shared/payment-kinds';
import { zCountOut, zDayOut, zInstantOut, zMoneyOut } from '@shared/schemas/output';
import { zAmount } from '@shared/schemas/payments';
import { blankToUndefined, zId, zOptionalDay, zOptionalText, zText } from '@shared/schemas/primitives';

/** docs/payments.md#adjustments: the user-facing texts of the adjustment rules. */
export const ADJUSTMENT_MESSAGES = {
  kind: 'Kind must be discount, scholarship or write_off.',
  percent: 'Percent must be between 1 and 100 with at most two decimals.',
  oneOf: 'Give either a percent or an amount, not both.',
  neither: 'Give a percent or an amount to take off.',
  writeOffWhole: 'A write-off takes what remains: leave out percent and amount.',
  schemeOnlyScholarship: 'Only a scholarship can name a scheme.',
  reason: 'A reason is required.',
  note: 'A note is required.',
  notFound: 'Adjustment not found.',
  schemeNotFound: 'Scholarship scheme not found.',
  schemeInactive: 'This scholarship scheme is no longer active.',
  schemeTaken: 'A scholarship scheme with this name already exists.',
  managersNeedApproval:
    'Only admins and superadmins can give discounts and scholarships while approval is off; ask an admin, or turn approval on in Settings.',
  writeOffAdmins: 'Only admins and superadmins can write off what is owed.',
  decideAdmins: 'Only admins and superadmins can approve, reject or revoke adjustments.',
  noFee: 'This enrollment has no admission fee.',
  bookingNoFee: 'A booking has no admission fee.',
  itemNotFound: 'Installment not found in this record.',
  notPending: (status: string) => `This adjustment is ${status}, not pending.`,
  revokePending: 'This adjustment is pending: approve or reject it instead.',
  revokeRejected: 'This adjustment was rejected; there is nothing to revoke.',
  planChanged: 'The payment type cannot change while a discount, scholarship or write-off is applied; revoke it first.',
} as const;

const zReason = (message: string) =>
  zText('Reason', { message }).trim().min(1, message).max(500, 'Reason must be at most 500 characters.');

export const zPercent = z
  .number({ error: ADJUSTMENT_MESSAGES.percent })
  .refine((n) => Number.isFinite(n) && n >= 1 && n <= 100 && hasAtMostTwoDecimals(n), ADJUSTMENT_MESSAGES.percent);

/** POST /api/enrollments/{id}/adjustments and /api/bookings/booking/{id}/adjustments. */
export const ZAdjustmentBody = z
  .object({
    kind: z.enum(ADJUSTMENT_KINDS, { error: ADJUSTMENT_MESSAGES.kind }),
    percent: zPercent.optional(),
    amount: zAmount().optional(),
    /** An installment's id, or `admission_fee`; absent for the whole fee. */
    itemId: zOptionalText('Item', 200),
    schemeId: zOptionalText('Scheme', 200),
    reason: zReason(ADJUSTMENT_MESSAGES.reason),
  })
  .superRefine((v, ctx) => {
    const issue = (message: string, path: string) => ctx.addIssue({ code: 'custom', message, path: [path] });
    if (v.kind === 'write_off') {
      if (v.percent !== undefined || v.amount !== undefined) issue(ADJUSTMENT_MESSAGES.writeOffWhole, 'percent');
    } else if (v.percent !== undefined && v.amount !== undefined) issue(ADJUSTMENT_MESSAGES.oneOf, 'percent');
    // A scholarship naming a scheme takes the scheme's percentage when it gives neither.
    else if (v.percent === undefined && v.amount === undefined && !(v.kind === 'scholarship' && v.schemeId))
      issue(ADJUSTMENT_MESSAGES.neither, 'percent');
    if (v.schemeId && v.kind !== 'scholarship') issue(ADJUSTMENT_MESSAGES.schemeOnlyScholarship, 'schemeId');
  });
export type TAdjustmentBody = z.infer<typeof ZAdjustmentBody>;

const zRecordRef = z.object({
  enrollmentId: zOptionalText('Enrollment', 200),
  bookingId: zOptionalText('Booking', 200),
});
const oneRecord: [(v: { enrollmentId?: string; bookingId?: string }) => boolean, { message: string; path: string[] }] =
  [
    (v) => Boolean(v.enrollmentId) !== Boolean(v.bookingId),
    { message: 'Choose the enrollment or the booking.', path: ['enrollmentId'] },
  ];

/** tRPC `adjustments.create` and `adjustments.preview`: the body with the record it is for. */
export const ZCreateAdjustmentInput = z.object({ ...zRecordRef.shape, body: ZAdjustmentBody }).refine(...oneRecord);
export type TCreateAdjustmentInput = z.infer<typeof ZCreateAdjustmentInput>;

export const ZAdjustmentsOfInput = zRecordRef.refine(...oneRecord);
export type TAdjustmentsOfInput = z.infer<typeof ZAdjustmentsOfInput>;

export const ZRevokeAdjustmentBody = z.object({ reason: zReason('A reason is required to revoke an adjustment.') });
export const ZRevokeAdjustmentInput = ZRevokeAdjustmentBody.extend({ id: zId('Adjustment') });
export type TRevokeAdjustmentInput = z.infer<typeof ZRevokeAdjustmentInput>;

export const ZDecideAdjustmentBody = z.object({
  note: zText('Note', { message: ADJUSTMENT_MESSAGES.note })
    .trim()
    .min(1, ADJUSTMENT_MESSAGES.note)
    .max(500, 'Note must be at most 500 characters.'),
});
export const ZDecideAdjustmentInput = ZDecideAdjustmentBody.extend({ id: zId('Adjustment') });
export type TDecideAdjustmentInput = z.infer<typeof ZDecideAdjustmentInput>;

export const ZAdjustmentIdInput = z.object({ id: zId('Adjustment') });

const zPageNumber = (name: string, max: number, fallback: number) =>
  z.coerce
    .number({ error: `${name} must be a whole number.` })
    .int(`${name} must be a whole number.`)
    .min(1, name === 'page' ? 'page must be at least 1.' : `limit must be between 1 and ${max}.`)
    .max(max, name === 'page' ? `page must be at most ${max}.` : `limit must be between 1 and ${max}.`)
    .default(fallback);

/**
 * GET /api/adjustments and `adjustments.search`: every record's adjustments, newest first, by the
 * day they were asked for (in TIME_ZONE); `status=pending` is the admins' queue of requests.
 */
export const ZListAdjustmentsInput = z
  .object({
    status: z.preprocess(
      blankToUndefined,
      z.enum(ADJUSTMENT_STATUSES, { error: 'Status must be applied, pending, revoked or rejected.' }).optional(),
    ),
    kind: z.preprocess(blankToUndefined, z.enum(ADJUSTMENT_KINDS, { error: ADJUSTMENT_MESSAGES.kind }).optional()),
    branchId: zOptionalText('Branch', 200),
    from: zOptionalDay('From'),
    to: zOptionalDay('To'),
    page: zPageNumber('page', 100_000, 1),
    limit: zPageNumber('limit', 200, 50),
  })
  .refine((f) => !f.from || !f.to || f.from <= f.to, { message: 'From must be on or before To.', path: ['to'] });
export type TListAdjustmentsInput = z.infer<typeof ZListAdjustmentsInput>;

export const ZAdjustmentSettings = z.object({ approvalRequired: z.boolean() });
export const ZAdjustmentSettingsInput = z.object({
  approvalRequired: z.boolean({ error: 'approvalRequired must be true or false.' }),
});
export type TAdjustmentSettingsInput = z.infer<typeof ZAdjustmentSettingsInput>;

// Scholarship schemes (Settings → Scholarships).
const zSchemeName = zText('Name', { message: 'Name is required.' })
  .trim()
  .min(1, 'Name is required.')
  .max(100, 'Name must be at most 100 characters.');
const zActive = z.boolean({ error: 'active must be true or false.' });
export const ZSchemeInput = z.object({ name: zSchemeName, defaultPercent: zPercent, active: zActive.default(true) });
export type TSchemeInput = z.infer<typeof ZSchemeInput>;
export const ZUpdateSchemeBody = z.object({
  name: zSchemeName.optional(),
  defaultPercent: zPercent.optional(),
  active: zActive.optional(),
});
export const ZUpdateSchemeInput = ZUpdateSchemeBody.extend({ id: zId('Scheme') });
export type TUpdateSchemeInput = z.infer<typeof ZUpdateSchemeInput>;

export const ZScheme = z.object({
  _id: z.string(),
  name: z.string(),
  defaultPercent: z.number(),
  active: z.boolean(),
  createdAt: zInstantOut,
  updatedAt: zInstantOut,
});
export type TScheme = z.infer<typeof ZScheme>;
export const ZSchemeList = z.object({ data: z.array(ZScheme), total: zCountOut });

const ZKeptUser = z.object({ _id: z.string().nullable(), username: z.string() });

/** One item an adjustment changed (or, pending, would change): its amount before and after. */
export const ZAdjustmentItem = z.object({
  itemId: z.string().nullable(),
  item: z.enum(['admission_fee', 'installment']),
  installmentNumber: z.number().int().nullable(),
  dueDate: zDayOut.nullable(),
  before: zMoneyOut,
  after: zMoneyOut,
});

/** An adjustment as the API answers it (docs/payments.md#adjustments). */
export const ZAdjustment = z.object({
  _id: z.string(),
  kind: z.enum(ADJUSTMENT_KINDS),
  status: z.enum(ADJUSTMENT_STATUSES),
  enrollmentId: z.string().nullable(),
  bookingId: z.string().nullable(),
  currency: z.string(),
  percent: z.number().nullable(),
  amount: zMoneyOut.nullable(),
  total: zMoneyOut,
  scheme: z.object({ _id: z.string().nullable(), name: z.string() }).nullable(),
  reason: z.string(),
  items: z.array(ZAdjustmentItem),
  createdBy: ZKeptUser,
  createdAt: zInstantOut,
  approvedBy: ZKeptUser.nullable(),
  appliedAt: zInstantOut.nullable(),
  decidedAt: zInstantOut.nullable(),
  decisionNote: z.string().nullable(),
  revokedBy: ZKeptUser.nullable(),
  revokedAt: zInstantOut.nullable(),
  revokeReason: z.string().nullable(),
});
export type TAdjustment = z.infer<typeof ZAdjustment>;
export const ZAdjustmentList = z.array(ZAdjustment);
export const ZAdjustmentPage = z.object({ data: ZAdjustmentList, total: zCountOut, page: z.number().int() });
export type TAdjustmentPage = z.infer<typeof ZAdjustmentPage>;

/** What an adjustment would do now, without doing it (the screens' preview). */
export const ZAdjustmentPreview = z.object({
  currency: z.string(),
  total: zMoneyOut,
  items: z.array(ZAdjustmentItem),
  /** Whether it would wait for an admin (a manager's, with approval on). */
  pending: z.boolean(),
});
export type TAdjustmentPreview = z.infer<typeof ZAdjustmentPreview>;

/** GET /api/adjustments/summary: the period's discounts, scholarships, write-offs and refunds, grouped. */
export const ZMoneyChangesInput = z
  .object({ from: zOptionalDay('From'), to: zOptionalDay('To'), branchId: zOptionalText('Branch', 200) })
  .refine((f) => !f.from || !f.to || f.from <= f.to, { message: 'From must be on or before To.', path: ['to'] });
export type TMoneyChangesInput = z.infer<typeof ZMoneyChangesInput>;

const ZBranchRef = z.object({ _id: z.string().nullable(), name: z.string() }).nullable();
export const ZMoneyChanges = z.object({
  /** Adjustments in force, by the month they were applied (TIME_ZONE), branch, kind, scheme and reason. */
  adjustments: z.array(
    z.object({
      month: z.string(),
      branch: ZBranchRef,
      kind: z.enum(ADJUSTMENT_KINDS),
      scheme: z.string().nullable(),
      reason: z.string(),
      currency: z.string(),
      amount: zMoneyOut,
      count: zCountOut,
    }),
  ),
  /** Refunds by the month they were made, branch and method. */
  refunds: z.array(
    z.object({
      month: z.string(),
      branch: ZBranchRef,
      method: z.enum(PAYMENT_METHODS),
      currency: z.string(),
      amount: zMoneyOut,
      count: zCountOut,
    }),
  ),
});
export type TMoneyChanges = z.infer<typeof ZMoneyChanges>;
