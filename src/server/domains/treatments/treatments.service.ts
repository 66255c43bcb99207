import { and, asc, count, desc, eq, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { firstRow } from '../../db/rows';
import { treatmentBookings, treatments } from '../../db/schema';
import { fromMinor, toMinor } from '../../../shared/money';
import type { Page } from '../../../shared/pagination';
import { AppError, isUniqueViolation } from '../../errors';
import { recordCatalogueChange, type CatalogueView } from '../audit/audit.service';
import type { SystemContext } from '../context';
import { assertId } from '../ids';
import { numberedPage } from '../paging';
import { ilikeContains } from '../sql-conditions';
import {
  DUPLICATE_TREATMENT,
  type TCreateTreatmentInput,
  type TListTreatmentsInput,
  type TreatmentValues,
  type TUpdateTreatmentInput,
} from '@shared/schemas/treatments';
import type { TTreatment } from '@shared/schemas/treatments.output';
import { afterWrite } from '../read-cache';

type TreatmentRow = typeof treatments.$inferSelect;

/** docs/product.md#records-and-their-fields Treatment; money as decimal numbers. */
export function toTreatmentDto(t: TreatmentRow): TTreatment {
  return {
    _id: t.id,
    treatmentName: t.treatmentName,
    localPrice: fromMinor(t.localPrice),
    foreignPrice: fromMinor(t.foreignPrice),
    maxSessions: t.maxSessions,
    installments: t.installments,
    duration: { weeks: t.durationWeeks, days: t.durationDays, months: t.durationMonths },
    category: t.category,
    description: t.description,
    sessionMinutes: t.sessionMinutes,
    bufferMinutes: t.bufferMinutes,
    requiresRoom: t.requiresRoom,
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
  };
}
export type TreatmentDto = TTreatment;

/** A treatment as its audit entries name and show it. */
const auditView = (t: TreatmentDto): CatalogueView => ({ name: t.treatmentName, fields: t });

const NOT_FOUND = 'Treatment not found.';

function columns(v: TreatmentValues) {
  return {
    treatmentName: v.treatmentName,
    localPrice: toMinor(v.localPrice),
    foreignPrice: toMinor(v.foreignPrice),
    maxSessions: v.maxSessions,
    installments: v.installments,
    durationWeeks: v.duration.weeks,
    durationDays: v.duration.days,
    durationMonths: v.duration.months,
    // Timing left out is not written: the column's default on a create, the current value on an update.
    ...(v.sessionMinutes !== undefined ? { sessionMinutes: v.sessionMinutes } : {}),
    ...(v.bufferMinutes !== undefined ? { bufferMinutes: v.bufferMinutes } : {}),
    ...(v.requiresRoom !== undefined ? { requiresRoom: v.requiresRoom } : {}),
  };
}

async function assertNameFree(db: Db, name: string, exceptId?: string) {
  const clash = await db
    .select({ id: treatments.id })
    .from(treatments)
    .where(
      and(
        eq(sql`lower(${treatments.treatmentName})`, name.toLowerCase()),
        exceptId ? ne(treatments.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  if (clash.length) throw new AppError('CONFLICT', DUPLICATE_TREATMENT);
}

/** The unique index decides a race between two creates of one name: still the same 409. */
async function withDuplicateAs409<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError('CONFLICT', DUPLICATE_TREATMENT);
    throw err;
  }
}

const SORT = {
  treatmentName: treatments.treatmentName,
  localPrice: treatments.localPrice,
  foreignPrice: treatments.foreignPrice,
  maxSessions: treatments.maxSessions,
  createdAt: treatments.createdAt,
};

export async function listTreatments({ db }: SystemContext, input: TListTreatmentsInput): Promise<Page<TreatmentDto>> {
  const where = input.search ? ilikeContains(treatments.treatmentName, input.search) : undefined;
  const order = input.sortDir === 'asc' ? asc(SORT[input.sortBy]) : desc(SORT[input.sortBy]);
  const rows = db.select().from(treatments).where(where).$dynamic();
  const total = db.select({ n: count() }).from(treatments).where(where);
  return numberedPage(input, rows, [order, asc(treatments.id)], total, toTreatmentDto);
}

/** Every treatment, by name: the REST list (a bare array) and the booking screen's dropdown. */
export async function listAllTreatments({ db }: SystemContext): Promise<TreatmentDto[]> {
  const rows = await db.select().from(treatments).orderBy(asc(treatments.treatmentName)).limit(5000);
  return rows.map(toTreatmentDto);
}

export async function getTreatment({ db }: SystemContext, id: string): Promise<TreatmentDto> {
  assertId(id, 'Treatment');
  const [row] = await db.select().from(treatments).where(eq(treatments.id, id)).limit(1);
  if (!row) throw new AppError('NOT_FOUND', NOT_FOUND);
  return toTreatmentDto(row);
}

export async function createTreatment(ctx: SystemContext, input: TCreateTreatmentInput): Promise<TreatmentDto> {
  await assertNameFree(ctx.db, input.treatmentName);
  return afterWrite(
    ctx.deps,
    withDuplicateAs409(() =>
      ctx.db.transaction(async (tx) => {
        const dto = toTreatmentDto(firstRow(await tx.insert(treatments).values(columns(input)).returning()));
        await recordCatalogueChange(tx, ctx, 'treatment', dto._id, null, auditView(dto));
        return dto;
      }),
    ),
  );
}

/** Existing bookings keep the price, sessions and schedule they were sold with. */
export async function updateTreatment(ctx: SystemContext, input: TUpdateTreatmentInput): Promise<TreatmentDto> {
  assertId(input.id, 'Treatment');
  await assertNameFree(ctx.db, input.treatmentName, input.id);
  return afterWrite(
    ctx.deps,
    withDuplicateAs409(() =>
      ctx.db.transaction(async (tx) => {
        const [old] = await tx.select().from(treatments).where(eq(treatments.id, input.id)).for('update').limit(1);
        if (!old) throw new AppError('NOT_FOUND', NOT_FOUND);
        const rows = await tx.update(treatments).set(columns(input)).where(eq(treatments.id, input.id)).returning();
        const before = toTreatmentDto(old);
        const after = toTreatmentDto(firstRow(rows));
        await recordCatalogueChange(tx, ctx, 'treatment', after._id, auditView(before), auditView(after));
        return after;
      }),
    ),
  );
}

/**
 * docs/treatments.md: deleting a treatment keeps its bookings. The foreign key sets their treatment to
 * null; the name is copied onto them first so they stay readable under the latest name.
 */
export async function deleteTreatment(ctx: SystemContext, id: string): Promise<{ message: string }> {
  assertId(id, 'Treatment');
  return afterWrite(
    ctx.deps,
    ctx.db.transaction(async (tx) => {
      const [row] = await tx.select().from(treatments).where(eq(treatments.id, id)).for('update').limit(1);
      if (!row) throw new AppError('NOT_FOUND', NOT_FOUND);
      await tx
        .update(treatmentBookings)
        .set({ treatmentName: row.treatmentName })
        .where(eq(treatmentBookings.treatmentId, id));
      await tx.delete(treatments).where(eq(treatments.id, id));
      await recordCatalogueChange(tx, ctx, 'treatment', id, auditView(toTreatmentDto(row)), null);
      return { message: 'Treatment deleted successfully!' };
    }),
  );
}
