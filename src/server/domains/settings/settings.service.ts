import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { SystemContext } from '../context';
import { settings } from '../../db/schema';
import type { TUpdateAccessInput, TUpdateCurrencyInput } from '@shared/schemas/settings';
import type { TCurrencySettings } from '@shared/schemas/settings.output';
import { managersOwnBranchOnly } from '../branch-scope';
import { fieldChanges, recordAudit } from '../audit/audit.service';
import { afterWrite } from '../read-cache';

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

/**
 * Writes `values` to the one settings row and records the change (docs/audit.md) when `read`
 * finds one. The row lock orders two admins' saves, so each entry's "before" is what that save
 * replaced.
 */
export async function saveSettings<T extends Record<string, unknown>>(
  ctx: SystemContext,
  entityId: 'currency' | 'access' | 'adjustments' | 'portal',
  values: Omit<typeof settings.$inferInsert, 'id'>,
  read: (db: Db) => Promise<T>,
  summary: (after: T) => string,
): Promise<T> {
  return afterWrite(
    ctx.deps,
    ctx.db.transaction(async (tx) => {
      await tx.select({ id: settings.id }).from(settings).where(eq(settings.id, 1)).for('update');
      const before = await read(tx);
      await tx
        .insert(settings)
        .values({ id: 1, ...values })
        .onConflictDoUpdate({ target: settings.id, set: values });
      const after = await read(tx);
      const changes = fieldChanges(before, after);
      if (changes.length) {
        await recordAudit(tx, ctx, {
          action: 'update',
          entityType: 'settings',
          entityId,
          summary: summary(after),
          changes,
        });
      }
      return after;
    }),
  );
}

/** Admins change the currencies and the rate on the Settings screen; reports use the new rate from then on. */
export async function updateCurrencySettings(
  ctx: SystemContext,
  input: TUpdateCurrencyInput,
): Promise<CurrencySettings> {
  const values = {
    localCurrency: input.localCurrency,
    foreignCurrency: input.foreignCurrency,
    exchangeRate: input.exchangeRate.toFixed(4),
  };
  return saveSettings(
    ctx,
    'currency',
    values,
    getCurrencySettings,
    (after) =>
      `Changed the currency settings to ${after.localCurrency}/${after.foreignCurrency} at ${after.exchangeRate}`,
  );
}

export type AccessSettings = { managersOwnBranchOnly: boolean };

/** Who sees what (docs/security.md#branch-scope). */
export async function getAccessSettings(db: Db): Promise<AccessSettings> {
  return { managersOwnBranchOnly: await managersOwnBranchOnly(db) };
}

/** Admins switch the branch limit for managers; it applies from the managers' next request. */
export async function updateAccessSettings(ctx: SystemContext, input: TUpdateAccessInput): Promise<AccessSettings> {
  return saveSettings(
    ctx,
    'access',
    { managersOwnBranchOnly: input.managersOwnBranchOnly },
    getAccessSettings,
    (after) =>
      after.managersOwnBranchOnly ? 'Limited managers to their own branch' : 'Let managers see every branch again',
  );
}
