import { z } from 'zod';
import { blankToUndefined, zText } from '@shared/schemas/primitives';

/** Text of at most `max` characters, trimmed; blank is stored as empty. */
const field = (label: string, max: number, multiline = false) =>
  z.preprocess(
    (v) => (v === null || v === undefined ? '' : v),
    zText(label, { multiline, message: `${label} must be text.` })
      .trim()
      .max(max, `${label} must be at most ${max} characters.`),
  );

/** Settings → Organisation (docs/users.md#the-organisation-on-paper): what receipts and reports print. */
export const ZOrganisationInput = z.object({
  name: field('Organisation name', 200),
  address: field('Address', 500, true),
  phone: field('Phone', 50),
  email: z.preprocess(
    (v) => blankToUndefined(v) ?? '',
    z.union([z.literal(''), z.email('E-mail must be a valid e-mail address.').max(200, 'E-mail is too long.')], {
      error: 'E-mail must be a valid e-mail address.',
    }),
  ),
  receiptFooter: field('Receipt footer', 500, true),
  /** Optional: left out, the stored bank details stay as they are. */
  bankDetails: zText('Bank details', { multiline: true, message: 'Bank details must be text.' })
    .trim()
    .max(1000, 'Bank details must be at most 1000 characters.')
    .nullish()
    .transform((v) => (v === null ? '' : v)),
});
export type TOrganisationInput = z.infer<typeof ZOrganisationInput>;

export const ZOrganisation = z.object({
  /** The stored name, or the product's name when none is stored. */
  name: z.string(),
  address: z.string(),
  phone: z.string(),
  email: z.string(),
  receiptFooter: z.string(),
  /** How to pay by bank, shown on the portal's How to pay ('' when none is written). */
  bankDetails: z.string(),
  /** Where the logo is served (GET /api/files/{id}), or null without one. */
  logoUrl: z.string().nullable(),
});
export type TOrganisation = z.infer<typeof ZOrganisation>;
