import { z } from 'zod';

/** The one settings row (docs/product.md, Money). */
export const ZCurrencySettings = z.object({
  localCurrency: z.string(),
  foreignCurrency: z.string(),
  exchangeRate: z.number(),
});
export type TCurrencySettings = z.infer<typeof ZCurrencySettings>;
