import { z } from 'zod';
import { zText } from '@shared/schemas/primitives';

const currency = (label: string) =>
  zText(label, { message: `${label} is required.` })
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{3}$/, `${label} must be a 3-letter currency code, such as LKR or USD.`);

export const ZUpdateCurrencyInput = z
  .object({
    localCurrency: currency('Local currency'),
    foreignCurrency: currency('Foreign currency'),
    exchangeRate: z
      .number({ message: 'Exchange rate must be a number.' })
      .positive('Exchange rate must be greater than 0.')
      .max(99_999_999, 'Exchange rate is too large.')
      .refine(
        (n) => Math.abs(n * 10_000 - Math.round(n * 10_000)) < 1e-6,
        'Exchange rate can have at most 4 decimal places.',
      ),
  })
  .refine((v) => v.localCurrency !== v.foreignCurrency, {
    message: 'Local and foreign currency must be different.',
    path: ['foreignCurrency'],
  });
export type TUpdateCurrencyInput = z.infer<typeof ZUpdateCurrencyInput>;

export const ZListJobsInput = z.object({
  state: z.enum(['queued', 'active', 'completed', 'failed']).optional(),
  limit: z.number().int().min(1).max(100).default(20),
});
export type TListJobsInput = z.infer<typeof ZListJobsInput>;

export const ZRetryJobInput = z.object({
  id: zText('Job id').trim().min(1, 'Job id is required.').max(200, 'Job id is not valid.'),
});

/** docs/security.md#branch-scope */
export const ZUpdateAccessInput = z.object({
  managersOwnBranchOnly: z.boolean({ message: 'Choose whether managers see only their own branch.' }),
});
export type TUpdateAccessInput = z.infer<typeof ZUpdateAccessInput>;
