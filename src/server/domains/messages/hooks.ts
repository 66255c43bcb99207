/*
 * The calls other domains make, inside their own transaction, when something happens that a
 * message follows (docs/messages.md#events). Each loads what its templates need by id, so a
 * caller adds one line.
 */
import { and, eq, lte } from 'drizzle-orm';
import type { AppDeps } from '../../deps';
import type { Db } from '../../db/client';
import {
  appointments,
  batchMembers,
  batches,
  branches,
  classSessions,
  courses,
  enrollments,
  payments,
  treatmentBookings,
  users,
} from '../../db/schema';
import { formatDate } from '../../../shared/format';
import { formatMoney } from '../../../shared/format';
import { hhmm, wallClockOf } from '../../../shared/zoned-time';
import { fromMinor } from '../../../shared/money';
import { loadMessageSettings } from './settings';
import { planMessages, withdrawMessages } from './plan';
import type { TemplateVars } from './templates';

/** The {date} and {time} placeholders of a moment, read in TIME_ZONE. */
export const when = (deps: AppDeps, at: Date) => ({
  date: formatDate(at, deps.config.TIME_ZONE),
  time: hhmm(wallClockOf(deps.config.TIME_ZONE, at).minute),
});

/** The placeholders of a class session's messages: its time, course and branch. */
export const classVars = (
  deps: AppDeps,
  s: { startAt: Date; course: string | null; branch: string | null },
): TemplateVars => ({ ...when(deps, s.startAt), course: s.course ?? '', branch: s.branch ?? '' });

/** What an appointment's messages are filled from: its notices and reminders, and the template preview. */
export async function appointmentMessageFacts(db: Db, appointmentId: string) {
  const [a] = await db
    .select({
      id: appointments.id,
      customerId: appointments.customerId,
      startAt: appointments.startAt,
      branch: branches.name,
      treatment: treatmentBookings.treatmentName,
      name: users.fullName,
    })
    .from(appointments)
    .innerJoin(branches, eq(branches.id, appointments.branchId))
    .innerJoin(treatmentBookings, eq(treatmentBookings.id, appointments.bookingId))
    .leftJoin(users, eq(users.id, appointments.customerId))
    .where(eq(appointments.id, appointmentId))
    .limit(1);
  return a;
}

export type AppointmentChange =
  { change: 'booked' } | { change: 'rescheduled'; oldStartAt: Date } | { change: 'cancelled' };

/**
 * An appointment booked, moved or cancelled by the clinic: the notice now, and for a booked or
 * moved one a reminder `reminderHours` before its start. A move or cancellation first withdraws
 * the reminders still to go for the old time. A reminder whose time has already passed is logged
 * as skipped (booked inside the reminder window): the confirmation carries the time anyway.
 */
export async function planAppointmentMessages(
  tx: Db,
  deps: AppDeps,
  appointmentId: string,
  what: AppointmentChange,
): Promise<void> {
  const a = await appointmentMessageFacts(tx, appointmentId);
  if (!a?.customerId) return;
  const now = new Date();
  const vars: TemplateVars = { ...when(deps, a.startAt), branch: a.branch, treatment: a.treatment };
  const base = { recipientId: a.customerId, entityType: 'appointment' as const, entityId: a.id, sendAt: now };
  const startKey = a.startAt.toISOString();
  if (what.change !== 'booked')
    await withdrawMessages(
      tx,
      a.id,
      ['appointment_reminder'],
      what.change === 'cancelled' ? 'cancelled' : 'rescheduled',
    );
  if (what.change === 'cancelled') {
    await planMessages(tx, deps, { ...base, event: 'appointment_cancelled', occasion: a.id, vars });
    return;
  }
  if (what.change === 'booked') {
    await planMessages(tx, deps, { ...base, event: 'appointment_booked', occasion: a.id, vars });
  } else {
    const old = when(deps, what.oldStartAt);
    await planMessages(tx, deps, {
      ...base,
      event: 'appointment_rescheduled',
      occasion: `${a.id}:${what.oldStartAt.toISOString()}>${startKey}`,
      vars: { ...vars, oldDate: old.date, oldTime: old.time },
    });
  }
  const settings = await loadMessageSettings(tx);
  for (const hours of settings.reminderHours) {
    const sendAt = new Date(a.startAt.getTime() - hours * 3_600_000);
    await planMessages(tx, deps, {
      ...base,
      event: 'appointment_reminder',
      occasion: `${a.id}:${startKey}:${hours}h`,
      sendAt: sendAt < now ? now : sendAt,
      vars,
      ...(sendAt < now ? { skip: 'inside_reminder_window' as const } : {}),
    });
  }
}

/** The students on a class session's roster (members who joined on or before its day). */
async function rosterOf(tx: Db, sessionId: string) {
  return tx
    .select({
      userId: enrollments.userId,
      startAt: classSessions.startAt,
      course: courses.courseName,
      branch: branches.name,
    })
    .from(classSessions)
    .innerJoin(batches, eq(batches.id, classSessions.batchId))
    .innerJoin(
      batchMembers,
      and(
        eq(batchMembers.batchId, batches.id),
        eq(batchMembers.status, 'member'),
        lte(batchMembers.joinedOn, classSessions.day),
      ),
    )
    .innerJoin(enrollments, eq(enrollments.id, batchMembers.enrollmentId))
    .leftJoin(courses, eq(courses.id, batches.courseId))
    .leftJoin(branches, eq(branches.id, batches.branchId))
    .where(eq(classSessions.id, sessionId));
}

/** A class session cancelled, or moved (`oldStartAt` given): a notice to each student on its roster. */
export async function planClassSessionMessages(
  tx: Db,
  deps: AppDeps,
  sessionId: string,
  what: { change: 'cancelled' } | { change: 'moved'; oldStartAt: Date },
): Promise<void> {
  const roster = await rosterOf(tx, sessionId);
  for (const r of roster) {
    if (!r.userId) continue;
    const vars = classVars(deps, r);
    const base = {
      recipientId: r.userId,
      entityType: 'class_session' as const,
      entityId: sessionId,
      sendAt: new Date(),
    };
    if (what.change === 'cancelled') {
      await planMessages(tx, deps, { ...base, event: 'class_cancelled', occasion: sessionId, vars });
    } else {
      const old = when(deps, what.oldStartAt);
      await planMessages(tx, deps, {
        ...base,
        event: 'class_moved',
        occasion: `${sessionId}:${what.oldStartAt.toISOString()}>${r.startAt.toISOString()}`,
        vars: { ...vars, oldDate: old.date, oldTime: old.time },
      });
    }
  }
}

/**
 * A student marked absent from a session: one notice per session and student, the SMS to their
 * guardian's phone when one is recorded.
 */
export async function planAbsenceMessage(tx: Db, deps: AppDeps, sessionId: string, enrollmentId: string) {
  const [r] = await tx
    .select({
      userId: enrollments.userId,
      guardianPhone: users.guardianPhone,
      startAt: classSessions.startAt,
      course: courses.courseName,
      branch: branches.name,
    })
    .from(classSessions)
    .innerJoin(batches, eq(batches.id, classSessions.batchId))
    .innerJoin(enrollments, eq(enrollments.id, enrollmentId))
    .leftJoin(users, eq(users.id, enrollments.userId))
    .leftJoin(courses, eq(courses.id, enrollments.courseId))
    .leftJoin(branches, eq(branches.id, batches.branchId))
    .where(eq(classSessions.id, sessionId))
    .limit(1);
  if (!r?.userId) return;
  await planMessages(tx, deps, {
    event: 'absence',
    recipientId: r.userId,
    entityType: 'attendance',
    entityId: sessionId,
    occasion: `${sessionId}:${enrollmentId}`,
    sendAt: new Date(),
    // By SMS to the guardian's phone when one is recorded, else the student's own.
    smsTo: r.guardianPhone,
    vars: classVars(deps, r),
  });
}

/** What a `payment_received` template fills in about a payment: the notice's and the receipt e-mail's. */
export const paymentVars = (deps: AppDeps, p: typeof payments.$inferSelect): TemplateVars => ({
  ...when(deps, p.receivedAt),
  amount: formatMoney(fromMinor(p.amount), p.currency),
  receiptNumber: p.receiptNumber,
  branch: p.branchName ?? '',
  course: p.subject,
  treatment: p.subject,
});

/** A payment recorded: the receipt notice, when payment_received is switched on (planMessages checks). */
export async function planPaymentMessage(tx: Db, deps: AppDeps, paymentId: string) {
  const [p] = await tx.select().from(payments).where(eq(payments.id, paymentId)).limit(1);
  if (!p?.payerId) return;
  await planMessages(tx, deps, {
    event: 'payment_received',
    recipientId: p.payerId,
    entityType: 'payment',
    entityId: p.id,
    occasion: p.id,
    sendAt: new Date(),
    vars: paymentVars(deps, p),
  });
}
