/**
 * A practitioner's time off (docs/appointments.md#resources): away at every branch from a start to
 * an end. Admins add and remove it; staff read it, a manager limited to a branch only for those
 * working there.
 */
import { and, asc, eq, lt, sql } from 'drizzle-orm';
import { firstRow } from '../../db/rows';
import { practitioners, practitionerTimeOff } from '../../db/schema';
import { AppError } from '../../errors';
import {
  RESOURCE_MESSAGES,
  type TAddTimeOffInput,
  type TDayRange,
  type TListTimeOffInput,
  type TTimeOff,
  type TTimeOffIdInput,
  type TTimeOffList,
} from '@shared/schemas/practitioners';
import { fieldChanges, recordAudit } from '../audit/audit.service';
import type { ServiceContext, SystemContext } from '../context';
import { assertId } from '../ids';
import { practitionerRowInScope, toPractitionerDtos } from './practitioners.read';

const M = RESOURCE_MESSAGES;

type TimeOffRow = typeof practitionerTimeOff.$inferSelect;
const toTimeOffDto = (r: TimeOffRow): TTimeOff => ({
  _id: r.id,
  practitionerId: r.practitionerId,
  start: r.startAt.toISOString(),
  end: r.endAt.toISOString(),
  reason: r.reason,
  createdAt: r.createdAt.toISOString(),
});

/** Instants bounding the days of a range in the organisation's zone (a day's start, the next day's). */
function rangeInstants(ctx: SystemContext, range: TDayRange | undefined) {
  const zone = ctx.deps.config.TIME_ZONE;
  const at = (day: string) => sql`(${day}::date)::timestamp at time zone ${zone}`;
  return {
    from: range?.from ? at(range.from) : undefined,
    toExclusive: range?.to ? sql`((${range.to}::date + 1)::timestamp at time zone ${zone})` : undefined,
  };
}

/** GET /api/practitioners/{id}/time-off: in start order; `from`/`to` keep what touches those days. */
export async function listTimeOff(ctx: ServiceContext, input: TListTimeOffInput): Promise<TTimeOffList> {
  const p = await practitionerRowInScope(ctx, input.id);
  const { from, toExclusive } = rangeInstants(ctx, input.range);
  const rows = await ctx.db
    .select()
    .from(practitionerTimeOff)
    .where(
      and(
        eq(practitionerTimeOff.practitionerId, p.id),
        from ? sql`${practitionerTimeOff.endAt} > ${from}` : undefined,
        toExclusive ? lt(practitionerTimeOff.startAt, toExclusive) : undefined,
      ),
    )
    .orderBy(asc(practitionerTimeOff.startAt), asc(practitionerTimeOff.id))
    .limit(1000);
  return { data: rows.map(toTimeOffDto) };
}

const when = (r: TimeOffRow) => `${r.startAt.toISOString()} to ${r.endAt.toISOString()}`;

/**
 * POST /api/practitioners/{id}/time-off: away at every branch from start to end. Appointments
 * already booked then stay (the calendar shows them over the time off) for staff to move.
 */
export async function addTimeOff(ctx: ServiceContext, input: TAddTimeOffInput): Promise<TTimeOff> {
  assertId(input.id, 'Practitioner');
  return ctx.db.transaction(async (tx) => {
    const [p] = await tx.select().from(practitioners).where(eq(practitioners.id, input.id)).limit(1);
    if (!p) throw new AppError('NOT_FOUND', M.practitionerNotFound);
    const row = firstRow(
      await tx
        .insert(practitionerTimeOff)
        .values({
          practitionerId: p.id,
          startAt: new Date(input.timeOff.start),
          endAt: new Date(input.timeOff.end),
          reason: input.timeOff.reason ?? '',
        })
        .returning(),
    );
    const [who] = await toPractitionerDtos(tx, [p]);
    await recordAudit(tx, ctx, {
      action: 'create',
      entityType: 'time_off',
      entityId: row.id,
      summary: `Added time off for ${who?.user.fullName ?? 'a practitioner'} from ${when(row)}`,
      changes: fieldChanges(null, { practitionerId: p.id, start: row.startAt, end: row.endAt, reason: row.reason }),
    });
    return toTimeOffDto(row);
  });
}

export async function removeTimeOff(ctx: ServiceContext, input: TTimeOffIdInput): Promise<{ message: string }> {
  assertId(input.id, 'Practitioner');
  assertId(input.timeOffId, 'Time off');
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .delete(practitionerTimeOff)
      .where(and(eq(practitionerTimeOff.id, input.timeOffId), eq(practitionerTimeOff.practitionerId, input.id)))
      .returning();
    if (!row) throw new AppError('NOT_FOUND', M.timeOffNotFound);
    const [p] = await tx.select().from(practitioners).where(eq(practitioners.id, input.id)).limit(1);
    const [who] = p ? await toPractitionerDtos(tx, [p]) : [];
    await recordAudit(tx, ctx, {
      action: 'delete',
      entityType: 'time_off',
      entityId: row.id,
      summary: `Removed time off of ${who?.user.fullName ?? 'a practitioner'} from ${when(row)}`,
      changes: fieldChanges(
        { practitionerId: row.practitionerId, start: row.startAt, end: row.endAt, reason: row.reason },
        null,
      ),
    });
    return { message: M.timeOffDeleted };
  });
}
