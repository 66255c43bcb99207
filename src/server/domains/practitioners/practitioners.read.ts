/**
 * Reads of the calendar's resources (docs/appointments.md#resources), shared by the resource
 * services and the appointment rules: a practitioner's answer, a working plan as periods, the
 * branch scope over practitioners, rooms and closures.
 */
import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import {
  branches,
  practitionerBranches,
  practitioners,
  practitionerTreatments,
  rooms,
  treatments,
  users,
  workingPeriods,
} from '../../db/schema';
import { AppError } from '../../errors';
import {
  RESOURCE_MESSAGES,
  timeOf,
  WEEKDAYS,
  type TPeriod,
  type TPractitioner,
  type TRoom,
  type TWorkingPlan,
  type Weekday,
} from '@shared/schemas/practitioners';
import { branchScopeOf, type BranchScope } from '../branch-scope';
import type { SystemContext } from '../context';
import { isUuid } from '../ids';

export type PractitionerRow = typeof practitioners.$inferSelect;
export type WorkingPeriodRow = typeof workingPeriods.$inferSelect;

/** Practitioners as the API answers them, with their user, branches and treatments: three statements. */
export async function toPractitionerDtos(db: Db, rows: PractitionerRow[]): Promise<TPractitioner[]> {
  const ids = rows.map((r) => r.id);
  if (ids.length === 0) return [];
  const [people, places, delivers] = await Promise.all([
    db
      .select({ _id: users.id, username: users.username, fullName: users.fullName, email: users.email })
      .from(users)
      .where(
        inArray(
          users.id,
          rows.map((r) => r.userId),
        ),
      ),
    db
      .select({ practitionerId: practitionerBranches.practitionerId, _id: branches.id, name: branches.name })
      .from(practitionerBranches)
      .innerJoin(branches, eq(branches.id, practitionerBranches.branchId))
      .where(inArray(practitionerBranches.practitionerId, ids))
      .orderBy(asc(branches.name)),
    db
      .select({
        practitionerId: practitionerTreatments.practitionerId,
        _id: treatments.id,
        treatmentName: treatments.treatmentName,
      })
      .from(practitionerTreatments)
      .innerJoin(treatments, eq(treatments.id, practitionerTreatments.treatmentId))
      .where(inArray(practitionerTreatments.practitionerId, ids))
      .orderBy(asc(treatments.treatmentName)),
  ]);
  const byUser = new Map(people.map((u) => [u._id, u]));
  return rows.map((r) => ({
    _id: r.id,
    // The user row is deleted with its practitioner (cascade), so it is always there.
    user: byUser.get(r.userId) ?? { _id: r.userId, username: '', fullName: '', email: '' },
    branches: places.filter((b) => b.practitionerId === r.id).map((b) => ({ _id: b._id, name: b.name })),
    treatments: delivers
      .filter((t) => t.practitionerId === r.id)
      .map((t) => ({ _id: t._id, treatmentName: t.treatmentName })),
    color: r.color,
    active: r.active,
  }));
}

/** One practitioner's answer, or null when there is none by that id (no scope applied). */
export async function loadPractitionerDto(db: Db, id: string): Promise<TPractitioner | null> {
  if (!isUuid(id)) return null;
  const [row] = await db.select().from(practitioners).where(eq(practitioners.id, id)).limit(1);
  if (!row) return null;
  const [dto] = await toPractitionerDtos(db, [row]);
  return dto ?? null;
}

/** A condition on a branch column for the caller's scope: a limited manager's own branch only. */
export function branchColumnInScope(scope: BranchScope | null, column: AnyPgColumn): SQL | undefined {
  if (!scope) return undefined;
  return scope.branchId ? eq(column, scope.branchId) : sql`false`;
}

/** Practitioners the scope sees: those working at the limited manager's branch. */
export function practitionerInScope(scope: BranchScope | null): SQL | undefined {
  if (!scope) return undefined;
  if (!scope.branchId) return sql`false`;
  return sql`exists (select 1 from ${practitionerBranches} where ${practitionerBranches.practitionerId} = ${practitioners.id} and ${practitionerBranches.branchId} = ${scope.branchId})`;
}

/** The practitioner row the caller may see, or 404 (out of scope answers like missing). */
export async function practitionerRowInScope(ctx: SystemContext, id: string): Promise<PractitionerRow> {
  if (!isUuid(id)) throw new AppError('NOT_FOUND', RESOURCE_MESSAGES.practitionerNotFound);
  const [row] = await ctx.db
    .select()
    .from(practitioners)
    .where(and(eq(practitioners.id, id), practitionerInScope(await branchScopeOf(ctx))))
    .limit(1);
  if (!row) throw new AppError('NOT_FOUND', RESOURCE_MESSAGES.practitionerNotFound);
  return row;
}

/** The branch (id and name) the caller may see, or 404. */
export async function branchInScope(ctx: SystemContext, id: string): Promise<{ _id: string; name: string }> {
  if (!isUuid(id)) throw new AppError('NOT_FOUND', RESOURCE_MESSAGES.branchNotFound);
  const [row] = await ctx.db
    .select({ _id: branches.id, name: branches.name })
    .from(branches)
    .where(and(eq(branches.id, id), branchColumnInScope(await branchScopeOf(ctx), branches.id)))
    .limit(1);
  if (!row) throw new AppError('NOT_FOUND', RESOURCE_MESSAGES.branchNotFound);
  return row;
}

/** Whether the practitioner works at the branch. */
export async function worksAt(db: Db, practitionerId: string, branchId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: practitionerBranches.practitionerId })
    .from(practitionerBranches)
    .where(and(eq(practitionerBranches.practitionerId, practitionerId), eq(practitionerBranches.branchId, branchId)))
    .limit(1);
  return !!row;
}

/** A practitioner's working periods at a branch, by weekday then start. */
export function loadWorkingPeriods(db: Db, practitionerId: string, branchId: string): Promise<WorkingPeriodRow[]> {
  return db
    .select()
    .from(workingPeriods)
    .where(and(eq(workingPeriods.practitionerId, practitionerId), eq(workingPeriods.branchId, branchId)))
    .orderBy(asc(workingPeriods.weekday), asc(workingPeriods.startMinute));
}

/** Periods (weekday 1–7, minutes) as the week the API answers: every day, "HH:MM" times. */
export function toWeek(periods: Array<Pick<WorkingPeriodRow, 'weekday' | 'startMinute' | 'endMinute'>>) {
  const days = Object.fromEntries(WEEKDAYS.map((d) => [d, [] as TPeriod[]])) as Record<Weekday, TPeriod[]>;
  const sorted = [...periods].sort((a, b) => a.weekday - b.weekday || a.startMinute - b.startMinute);
  for (const p of sorted) {
    const day = WEEKDAYS[p.weekday - 1];
    if (day) days[day].push({ start: timeOf(p.startMinute), end: timeOf(p.endMinute) });
  }
  return days;
}

export function toWorkingPlanDto(
  practitionerId: string,
  branch: { _id: string; name: string },
  periods: WorkingPeriodRow[],
): TWorkingPlan {
  return {
    practitionerId,
    branch,
    days: toWeek(periods),
    weeklyMinutes: periods.reduce((s, p) => s + (p.endMinute - p.startMinute), 0),
  };
}

type RoomRow = typeof rooms.$inferSelect;

export async function toRoomDtos(db: Db, rows: RoomRow[]): Promise<TRoom[]> {
  if (rows.length === 0) return [];
  const names = await db
    .select({ _id: branches.id, name: branches.name })
    .from(branches)
    .where(inArray(branches.id, [...new Set(rows.map((r) => r.branchId))]));
  const byId = new Map(names.map((b) => [b._id, b]));
  return rows.map((r) => ({
    _id: r.id,
    name: r.name,
    branch: byId.get(r.branchId) ?? { _id: r.branchId, name: '' },
    capacity: r.capacity,
  }));
}

/** One room's answer, or null (no scope applied). */
export async function loadRoomDto(db: Db, id: string): Promise<TRoom | null> {
  if (!isUuid(id)) return null;
  const [row] = await db.select().from(rooms).where(eq(rooms.id, id)).limit(1);
  if (!row) return null;
  const [dto] = await toRoomDtos(db, [row]);
  return dto ?? null;
}
