/** Settings → Scholarships (docs/payments.md#adjustments): named schemes with a default percentage. */
import { asc, eq } from 'drizzle-orm';
import { firstRow } from '../../db/rows';
import { scholarshipSchemes } from '../../db/schema';
import { AppError, isUniqueViolation } from '../../errors';
import {
  ADJUSTMENT_MESSAGES,
  type TScheme,
  type TSchemeInput,
  type TUpdateSchemeInput,
} from '@shared/schemas/adjustments';
import { fieldChanges, recordAudit } from '../audit/audit.service';
import type { ServiceContext } from '../context';
import { assertId } from '../ids';
import { invalidateReads } from '../read-cache';

type SchemeRow = typeof scholarshipSchemes.$inferSelect;

const toSchemeDto = (s: SchemeRow): TScheme => ({
  _id: s.id,
  name: s.name,
  defaultPercent: s.defaultPercent,
  active: s.active,
  createdAt: s.createdAt.toISOString(),
  updatedAt: s.updatedAt.toISOString(),
});

/** Every scheme, by name (a small catalogue): staff read it to choose one. */
export async function listSchemes(ctx: ServiceContext): Promise<{ data: TScheme[]; total: number }> {
  const rows = await ctx.db.select().from(scholarshipSchemes).orderBy(asc(scholarshipSchemes.name)).limit(1000);
  return { data: rows.map(toSchemeDto), total: rows.length };
}

/** A name already taken (in any case) is 409, decided by the unique index under concurrency. */
async function uniqueName<T>(write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError('CONFLICT', ADJUSTMENT_MESSAGES.schemeTaken);
    throw err;
  }
}

export async function createScheme(ctx: ServiceContext, input: TSchemeInput): Promise<TScheme> {
  const row = await uniqueName(
    ctx.db.transaction(async (tx) => {
      const s = firstRow(await tx.insert(scholarshipSchemes).values(input).returning());
      await recordAudit(tx, ctx, {
        action: 'create',
        entityType: 'scholarship_scheme',
        entityId: s.id,
        summary: `Created scholarship scheme ${s.name} (${s.defaultPercent}%)`,
        changes: fieldChanges(null, { name: s.name, defaultPercent: s.defaultPercent, active: s.active }),
      });
      return s;
    }),
  );
  invalidateReads(ctx.deps);
  return toSchemeDto(row);
}

export async function updateScheme(ctx: ServiceContext, input: TUpdateSchemeInput): Promise<TScheme> {
  assertId(input.id, 'Scholarship scheme');
  const { id, ...given } = input;
  // Only the fields the caller named change.
  const values = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined));
  const row = await uniqueName(
    ctx.db.transaction(async (tx) => {
      const [before] = await tx.select().from(scholarshipSchemes).where(eq(scholarshipSchemes.id, id)).for('update');
      if (!before) throw new AppError('NOT_FOUND', ADJUSTMENT_MESSAGES.schemeNotFound);
      const after = Object.keys(values).length
        ? firstRow(await tx.update(scholarshipSchemes).set(values).where(eq(scholarshipSchemes.id, id)).returning())
        : before;
      const pick = (s: SchemeRow) => ({ name: s.name, defaultPercent: s.defaultPercent, active: s.active });
      const changes = fieldChanges(pick(before), pick(after));
      if (changes.length) {
        await recordAudit(tx, ctx, {
          action: 'update',
          entityType: 'scholarship_scheme',
          entityId: id,
          summary: `Updated scholarship scheme ${after.name}`,
          changes,
        });
      }
      return after;
    }),
  );
  invalidateReads(ctx.deps);
  return toSchemeDto(row);
}
