/**
 * Practitioners and their working plans (docs/appointments.md#resources; their time off is in
 * time-off.service.ts). Admins change them; staff read them, a manager limited to a branch only
 * those working there.
 */
import { and, asc, count, eq, inArray, notInArray, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgInsertValue, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import { firstRow } from '../../db/rows';
import {
  appointments,
  branches,
  practitionerBranches,
  practitioners,
  practitionerTreatments,
  treatments,
  users,
  workingPeriods,
} from '../../db/schema';
import { AppError, isUniqueViolation } from '../../errors';
import {
  minutesOf,
  RESOURCE_MESSAGES,
  WEEKDAYS,
  type TCreatePractitionerInput,
  type TListPractitionersInput,
  type TPractitioner,
  type TPractitionerList,
  type TPractitionerRemoved,
  type TSetWorkingPlanInput,
  type TUpdatePractitionerInput,
  type TWorkingPlan,
  type TWorkingPlanInput,
} from '@shared/schemas/practitioners';
import { fieldChanges, recordAudit, recordCatalogueChange, type CatalogueView } from '../audit/audit.service';
import { branchScopeOf } from '../branch-scope';
import type { ServiceContext } from '../context';
import { assertId, isUuid } from '../ids';
import {
  branchInScope,
  loadWorkingPeriods,
  practitionerInScope,
  practitionerRowInScope,
  toPractitionerDtos,
  toWeek,
  toWorkingPlanDto,
  worksAt,
  type PractitionerRow,
} from './practitioners.read';

const M = RESOURCE_MESSAGES;

/** A practitioner as its audit entries name and show it. */
const auditView = (p: TPractitioner): CatalogueView => ({
  name: p.user.fullName || p.user.username,
  fields: {
    user: p.user.username,
    branches: p.branches.map((b) => b.name),
    treatments: p.treatments.map((t) => t.treatmentName),
    color: p.color,
    active: p.active,
  },
});

async function dtoOf(db: Db, row: PractitionerRow): Promise<TPractitioner> {
  return firstRow(await toPractitionerDtos(db, [row]));
}

/** Every id must name a row of `table`; the first that does not answers 404 with `message`. */
async function assertAllExist(db: Db, table: typeof branches | typeof treatments, ids: string[], message: string) {
  if (ids.length === 0) return;
  if (!ids.every(isUuid)) throw new AppError('NOT_FOUND', message);
  const found = await db.select({ id: table.id }).from(table).where(inArray(table.id, ids));
  if (found.length !== ids.length) throw new AppError('NOT_FOUND', message);
}

/** GET /api/practitioners: by name; filtered by a branch they work at and a treatment they deliver. */
export async function listPractitioners(
  ctx: ServiceContext,
  input: TListPractitionersInput,
): Promise<TPractitionerList> {
  const { branchId, treatmentId } = input;
  if ((branchId && !isUuid(branchId)) || (treatmentId && !isUuid(treatmentId))) return { data: [] };
  const rows = await ctx.db
    .select({ p: practitioners })
    .from(practitioners)
    .innerJoin(users, eq(users.id, practitioners.userId))
    .where(
      and(
        practitionerInScope(await branchScopeOf(ctx)),
        branchId
          ? sql`exists (select 1 from ${practitionerBranches} where ${practitionerBranches.practitionerId} = ${practitioners.id} and ${practitionerBranches.branchId} = ${branchId})`
          : undefined,
        treatmentId
          ? sql`exists (select 1 from ${practitionerTreatments} where ${practitionerTreatments.practitionerId} = ${practitioners.id} and ${practitionerTreatments.treatmentId} = ${treatmentId})`
          : undefined,
        input.active === undefined ? undefined : eq(practitioners.active, input.active),
      ),
    )
    .orderBy(asc(users.fullName), asc(practitioners.id))
    .limit(2000);
  return {
    data: await toPractitionerDtos(
      ctx.db,
      rows.map((r) => r.p),
    ),
  };
}

export async function getPractitioner(ctx: ServiceContext, id: string): Promise<TPractitioner> {
  return dtoOf(ctx.db, await practitionerRowInScope(ctx, id));
}

/**
 * Makes a practitioner's links in one join table exactly `ids`: the others deleted, the new ones
 * added (an existing one left as it is).
 */
async function replaceLinks<T extends PgTable>(
  tx: Db,
  table: T,
  owner: AnyPgColumn,
  linked: AnyPgColumn,
  id: string,
  ids: string[],
  rows: PgInsertValue<T>[],
) {
  await tx.delete(table).where(and(eq(owner, id), ids.length ? notInArray(linked, ids) : undefined));
  if (rows.length) await tx.insert(table).values(rows).onConflictDoNothing();
}

async function setLinks(tx: Db, id: string, branchIds?: string[], treatmentIds?: string[]) {
  if (branchIds) {
    const p = practitionerBranches;
    await replaceLinks(
      tx,
      p,
      p.practitionerId,
      p.branchId,
      id,
      branchIds,
      branchIds.map((branchId) => ({ practitionerId: id, branchId })),
    );
    // A plan at a branch the practitioner no longer works at is dropped with the branch.
    await tx
      .delete(workingPeriods)
      .where(and(eq(workingPeriods.practitionerId, id), notInArray(workingPeriods.branchId, branchIds)));
  }
  if (treatmentIds) {
    const p = practitionerTreatments;
    await replaceLinks(
      tx,
      p,
      p.practitionerId,
      p.treatmentId,
      id,
      treatmentIds,
      treatmentIds.map((treatmentId) => ({ practitionerId: id, treatmentId })),
    );
  }
}

/** POST /api/practitioners: any user may be one (a therapist need not sign in), once. */
export async function createPractitioner(ctx: ServiceContext, input: TCreatePractitionerInput): Promise<TPractitioner> {
  assertId(input.userId, 'User');
  const [user] = await ctx.db.select({ id: users.id }).from(users).where(eq(users.id, input.userId)).limit(1);
  if (!user) throw new AppError('NOT_FOUND', M.userNotFound);
  await assertAllExist(ctx.db, branches, input.branchIds, M.branchNotFound);
  await assertAllExist(ctx.db, treatments, input.treatmentIds, M.treatmentNotFound);
  const [already] = await ctx.db
    .select({ id: practitioners.id })
    .from(practitioners)
    .where(eq(practitioners.userId, input.userId))
    .limit(1);
  if (already) throw new AppError('CONFLICT', M.alreadyPractitioner, { practitionerId: already.id });
  try {
    return await ctx.db.transaction(async (tx) => {
      const row = firstRow(
        await tx
          .insert(practitioners)
          .values({ userId: input.userId, ...(input.color ? { color: input.color } : {}) })
          .returning(),
      );
      await setLinks(tx, row.id, input.branchIds, input.treatmentIds);
      const dto = await dtoOf(tx, row);
      await recordCatalogueChange(tx, ctx, 'practitioner', row.id, null, auditView(dto));
      return dto;
    });
  } catch (err) {
    // The unique index on the user decides a race of two creates for one user.
    if (isUniqueViolation(err)) throw new AppError('CONFLICT', M.alreadyPractitioner);
    throw err;
  }
}

/**
 * PUT /api/practitioners/{id}: the branches, treatments, colour and active flag sent replace the
 * current ones. Taking a branch away drops the working plan there; appointments already booked
 * stay as they are.
 */
export async function updatePractitioner(ctx: ServiceContext, input: TUpdatePractitionerInput): Promise<TPractitioner> {
  assertId(input.id, 'Practitioner');
  if (input.branchIds) await assertAllExist(ctx.db, branches, input.branchIds, M.branchNotFound);
  if (input.treatmentIds) await assertAllExist(ctx.db, treatments, input.treatmentIds, M.treatmentNotFound);
  return ctx.db.transaction(async (tx) => {
    const [old] = await tx.select().from(practitioners).where(eq(practitioners.id, input.id)).for('update').limit(1);
    if (!old) throw new AppError('NOT_FOUND', M.practitionerNotFound);
    const before = await dtoOf(tx, old);
    const set = {
      ...(input.color !== undefined ? { color: input.color } : {}),
      ...(input.active !== undefined ? { active: input.active } : {}),
    };
    const row = Object.keys(set).length
      ? firstRow(await tx.update(practitioners).set(set).where(eq(practitioners.id, input.id)).returning())
      : old;
    await setLinks(tx, row.id, input.branchIds, input.treatmentIds);
    const after = await dtoOf(tx, row);
    await recordCatalogueChange(tx, ctx, 'practitioner', row.id, auditView(before), auditView(after));
    return after;
  });
}

/**
 * DELETE /api/practitioners/{id}: one who has appointments (of any status) is kept, deactivated,
 * so the calendar's history keeps its name; one without is deleted with their plans and time off.
 */
export async function removePractitioner(ctx: ServiceContext, id: string): Promise<TPractitionerRemoved> {
  assertId(id, 'Practitioner');
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx.select().from(practitioners).where(eq(practitioners.id, id)).for('update').limit(1);
    if (!row) throw new AppError('NOT_FOUND', M.practitionerNotFound);
    const before = await dtoOf(tx, row);
    const [booked] = await tx.select({ n: count() }).from(appointments).where(eq(appointments.practitionerId, id));
    if ((booked?.n ?? 0) > 0) {
      const kept = firstRow(
        await tx.update(practitioners).set({ active: false }).where(eq(practitioners.id, id)).returning(),
      );
      await recordCatalogueChange(tx, ctx, 'practitioner', id, auditView(before), auditView(await dtoOf(tx, kept)));
      return { message: M.deactivated, deactivated: true };
    }
    await tx.delete(practitioners).where(eq(practitioners.id, id));
    await recordCatalogueChange(tx, ctx, 'practitioner', id, auditView(before), null);
    return { message: M.deleted, deactivated: false };
  });
}

// ------------------------------------------------------------------ working plans

/** GET /api/practitioners/{id}/working-plan?branchId: the week at one branch (empty days included). */
export async function getWorkingPlan(ctx: ServiceContext, input: TWorkingPlanInput): Promise<TWorkingPlan> {
  const p = await practitionerRowInScope(ctx, input.id);
  const branch = await branchInScope(ctx, input.branchId);
  return toWorkingPlanDto(p.id, branch, await loadWorkingPeriods(ctx.db, p.id, branch._id));
}

const dayText = (week: ReturnType<typeof toWeek>) =>
  Object.fromEntries(WEEKDAYS.map((d) => [d, week[d].map((p) => `${p.start}–${p.end}`).join(', ') || 'off']));

/**
 * PUT /api/practitioners/{id}/working-plan: the week sent replaces the plan at that branch. The
 * practitioner must work at the branch (409 otherwise: the plan is valid, the practitioner's
 * branches are not yet). Appointments already booked outside the new plan stay.
 */
export async function setWorkingPlan(ctx: ServiceContext, input: TSetWorkingPlanInput): Promise<TWorkingPlan> {
  assertId(input.id, 'Practitioner');
  const branch = await branchInScope(ctx, input.branchId);
  return ctx.db.transaction(async (tx) => {
    // The practitioner's row, locked: two plans saved at once for one practitioner apply in turn.
    const [p] = await tx.select().from(practitioners).where(eq(practitioners.id, input.id)).for('update').limit(1);
    if (!p) throw new AppError('NOT_FOUND', M.practitionerNotFound);
    if (!(await worksAt(tx, p.id, branch._id))) throw new AppError('CONFLICT', M.notAtBranch);
    const old = await loadWorkingPeriods(tx, p.id, branch._id);
    await tx
      .delete(workingPeriods)
      .where(and(eq(workingPeriods.practitionerId, p.id), eq(workingPeriods.branchId, branch._id)));
    const rows = WEEKDAYS.flatMap((day, i) =>
      input.days[day].map((period) => ({
        practitionerId: p.id,
        branchId: branch._id,
        weekday: i + 1,
        startMinute: minutesOf(period.start) ?? 0,
        endMinute: minutesOf(period.end) ?? 0,
      })),
    );
    const saved = rows.length ? await tx.insert(workingPeriods).values(rows).returning() : [];
    const changes = fieldChanges(dayText(toWeek(old)), dayText(toWeek(saved)));
    if (changes.length) {
      const [who] = await toPractitionerDtos(tx, [p]);
      await recordAudit(tx, ctx, {
        action: 'update',
        entityType: 'practitioner',
        entityId: p.id,
        summary: `Changed the working plan of ${who?.user.fullName ?? 'a practitioner'} at ${branch.name}`,
        changes,
      });
    }
    return toWorkingPlanDto(p.id, branch, saved);
  });
}
