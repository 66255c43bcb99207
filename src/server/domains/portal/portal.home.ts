/** The portal's Home (docs/portal.md#what-a-person-sees): what is next and what is owed, in one answer. */
import { and, asc, eq, gt, inArray, sql } from 'drizzle-orm';
import { appointments, batches, batchMembers, classSessions, courses, enrollments, rooms } from '../../db/schema';
import { fromMinor, toMinor } from '../../../shared/money';
import { LIVE_STATUSES } from '@shared/schemas/appointments';
import type { TPortalHome } from '@shared/schemas/portal';
import type { ServiceContext } from '../context';
import { appointmentRows, bookingsOf, enrollmentsOf, owedOn, today } from './portal.read';

type Owed = { currency: string; dueDate: string; minor: number; overdue: boolean };

export async function portalHome(ctx: ServiceContext): Promise<TPortalHome> {
  const t = today(ctx);
  const [mine, booked] = await Promise.all([enrollmentsOf(ctx), bookingsOf(ctx)]);
  const owed: Owed[] = [];
  const outstanding = new Map<string, number>();
  const add = (currency: string, minor: number) => outstanding.set(currency, (outstanding.get(currency) ?? 0) + minor);
  for (const e of mine) {
    if (e.status === 'Completed') continue;
    add(e.currency, toMinor(e.outstandingAmount));
    for (const i of e.installments)
      if (owedOn(i) > 0)
        owed.push({ currency: e.currency, dueDate: i.dueDate, minor: owedOn(i), overdue: i.dueDate < t });
  }
  for (const b of booked) {
    if (b.status === 'cancelled') continue;
    add(b.currency, toMinor(b.outstandingAmount));
    for (const i of b.installments)
      if (owedOn(i) > 0)
        owed.push({ currency: b.currency, dueDate: i.dueDate, minor: owedOn(i), overdue: i.dueDate < t });
  }
  const overdue = new Map<string, { minor: number; since: string }>();
  for (const o of owed.filter((x) => x.overdue)) {
    const cur = overdue.get(o.currency);
    overdue.set(o.currency, {
      minor: (cur?.minor ?? 0) + o.minor,
      since: cur && cur.since < o.dueDate ? cur.since : o.dueDate,
    });
  }
  const next = owed
    .filter((o) => !o.overdue)
    .sort((a, b) => a.dueDate.localeCompare(b.dueDate) || a.currency.localeCompare(b.currency))[0];

  const [nextAppointment] = await appointmentRows(
    ctx,
    and(gt(appointments.startAt, new Date()), inArray(appointments.status, [...LIVE_STATUSES])),
    1,
  );
  return {
    nextAppointment: nextAppointment ?? null,
    nextClass: await nextClassOf(ctx),
    nextDue: next ? { amount: fromMinor(next.minor), currency: next.currency, dueDate: next.dueDate } : null,
    outstanding: [...outstanding]
      .filter(([, m]) => m > 0)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([currency, m]) => ({ currency, amount: fromMinor(m) })),
    overdue: [...overdue]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([currency, o]) => ({ currency, amount: fromMinor(o.minor), since: o.since })),
  };
}

async function nextClassOf(ctx: ServiceContext): Promise<TPortalHome['nextClass']> {
  const [row] = await ctx.db
    .select({
      enrollmentId: batchMembers.enrollmentId,
      batchId: batches.id,
      batchName: batches.name,
      courseName: sql<string>`coalesce(${courses.courseName}, ${enrollments.deletedCourseName}, '')`,
      start: classSessions.startAt,
      end: classSessions.endAt,
      roomName: rooms.name,
    })
    .from(batchMembers)
    .innerJoin(enrollments, eq(enrollments.id, batchMembers.enrollmentId))
    .innerJoin(batches, eq(batches.id, batchMembers.batchId))
    .innerJoin(classSessions, eq(classSessions.batchId, batches.id))
    .leftJoin(courses, eq(courses.id, batches.courseId))
    .leftJoin(rooms, eq(rooms.id, classSessions.roomId))
    .where(
      and(
        eq(enrollments.userId, ctx.actor.id),
        eq(batchMembers.status, 'member'),
        eq(classSessions.status, 'scheduled'),
        gt(classSessions.endAt, new Date()),
      ),
    )
    .orderBy(asc(classSessions.startAt))
    .limit(1);
  if (!row) return null;
  return {
    enrollmentId: row.enrollmentId,
    batch: { _id: row.batchId, name: row.batchName },
    courseName: row.courseName,
    start: row.start.toISOString(),
    end: row.end.toISOString(),
    room: row.roomName ? { name: row.roomName } : null,
  };
}
