import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { settings } from '../../db/schema';

export interface CurrencySettings {
  localCurrency: string;
  foreignCurrency: string;
  exchangeRate: number;
}

const DEFAULTS: CurrencySettings = { localCurrency: 'LKR', foreignCurrency: 'USD', exchangeRate: 320.75 };

/** The one settings row (RULES.md, Money); defaults when it has not been written yet. */
export async function getCurrencySettings(db: Db): Promise<CurrencySettings> {
  const [row] = await db.select().from(settings).where(eq(settings.id, 1)).limit(1);
  if (!row) return DEFAULTS;
  return { localCurrency: row.localCurrency, foreignCurrency: row.foreignCurrency, exchangeRate: Number(row.exchangeRate) };
}
