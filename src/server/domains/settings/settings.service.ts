import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { SystemContext } from '../common';
import { settings } from '../../db/schema';
import type { TUpdateAccessInput, TUpdateCurrencyInput } from '@shared/schemas/settings';
import type { TCurrencySettings } from '@shared/schemas/settings.output';
import { managersOwnBranchOnly } from '../branch-scope';

export type CurrencySettings = TCurrencySettings;

const DEFAULTS: CurrencySettings = { localCurrency: 'LKR', foreignCurrency: 'USD', exchangeRate: 320.75 };

/** The one settings row (docs/product.md, Money); defaults when it has not been written yet. */
export async function getCurrencySettings(db: Db): Promise<CurrencySettings> {
  const [row] = await db.select().from(settings).where(eq(settings.id, 1)).limit(1);
  if (!row) return DEFAULTS;
  return {
    localCurrency: row.localCurrency,
    foreignCurrency: row.foreignCurrency,
    exchangeRate: Number(row.exchangeRate),
  };
}

/** Admins change the currencies and the rate on the Settings screen; reports use the new rate from then on. */
export async function updateCurrencySettings(
  { db }: SystemContext,
  input: TUpdateCurrencyInput,
): Promise<CurrencySettings> {
  const values = {
    localCurrency: input.localCurrency,
    foreignCurrency: input.foreignCurrency,
    exchangeRate: input.exchangeRate.toFixed(4),
  };
  await db
    .insert(settings)
    .values({ id: 1, ...values })
    .onConflictDoUpdate({ target: settings.id, set: values });
  return getCurrencySettings(db);
}

export interface AccessSettings {
  managersOwnBranchOnly: boolean;
}

/** Who sees what (docs/security.md#branch-scope). */
export async function getAccessSettings(db: Db): Promise<AccessSettings> {
  return { managersOwnBranchOnly: await managersOwnBranchOnly(db) };
}

/** Admins switch the branch limit for managers; it applies from the managers' next request. */
export async function updateAccessSettings({ db }: SystemContext, input: TUpdateAccessInput): Promise<AccessSettings> {
  await db
    .insert(settings)
    .values({ id: 1, managersOwnBranchOnly: input.managersOwnBranchOnly })
    .onConflictDoUpdate({ target: settings.id, set: { managersOwnBranchOnly: input.managersOwnBranchOnly } });
  return getAccessSettings(db);
}
