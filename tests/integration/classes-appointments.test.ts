import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appointments, classSessions } from '../../src/server/db/schema';
import { startTestApp, type TestApp } from '../helpers/app';
import { at, makeBooking, makePractitioner, makeRoom, makeTimedTreatment, TZ } from '../helpers/appointment-factories';
import { dayFromToday, postBatch, weekdayOf } from '../helpers/class-factories';
import { makeBranch, postCourse, type MadeUser } from '../helpers/factories';

/**
 * The appointments' side of the class clashes (docs/classes.md#clashes and #locks): an appointment
 * is refused when its practitioner teaches a class then or its room would pass its capacity
 * counting class sessions, and a class write racing an appointment write for one room or one
 * person lets exactly one through.
 */
let t: TestApp;
let admin: MadeUser & { token: string };
let courseId: string;

beforeAll(async () => {
  t = await startTestApp();
  expect(t.deps.config.TIME_ZONE).toBe(TZ);
  admin = await t.userWithSession('admin');
  courseId = await postCourse(t, admin.token, 'Class and clinic', {
    totalFee: 30000,
    admissionFee: 0,
    installments: 1,
  });
});
afterAll(() => t.close());

async function clinic() {
  const branch = await makeBranch(t.deps.db);
  const treatment = await makeTimedTreatment(t.deps.db, { sessionMinutes: 60, bufferMinutes: 15 });
  const practitioner = await makePractitioner(t.deps.db, { branchIds: [branch.id], treatmentIds: [treatment.id] });
  const booking = await makeBooking(t, admin.token, treatment.id);
  return { branch, treatment, practitioner, booking };
}
type Clinic = Awaited<ReturnType<typeof clinic>>;

const book = (c: Clinic, start: string, extra: Record<string, unknown> = {}) =>
  t.api('POST', '/api/appointments', {
    token: admin.token,
    body: { bookingId: c.booking.id, practitionerId: c.practitioner.id, branchId: c.branch.id, start, ...extra },
  });

/** A one-day batch at `day` from `start` to `end`. */
const batchBody = (
  branchId: string,
  instructorId: string,
  day: string,
  start: string,
  end: string,
  roomId?: string,
) => ({
  name: `Class ${Math.random().toString(36).slice(2, 7)}`,
  courseId,
  branchId,
  instructorId,
  startDate: day,
  endDate: day,
  capacity: 10,
  timetable: [{ weekday: weekdayOf(day), start, end, roomId: roomId ?? null }],
});

describe('an appointment against class sessions', () => {
  it('is refused while its practitioner teaches a class then, counting its buffer, and a move there too', async () => {
    const c = await clinic();
    const day = dayFromToday(12);
    const batch = await postBatch(t, admin.token, {
      ...batchBody(c.branch.id, c.practitioner.userId, day, '11:00', '12:00'),
      name: 'Anatomy evenings',
    });
    // 10:00–11:00 plus a 15 minute buffer reaches into the class at 11:00.
    const refused = await book(c, at(day, '10:00'));
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/already teaches "Anatomy evenings" \w{3} \d+ \w{3} \d{4}, 11:00–12:00\./);
    const ok = await book(c, at(day, '09:00'));
    expect(ok.status).toBe(201);
    const move = await t.api('PUT', `/api/appointments/${ok.body._id}`, {
      token: admin.token,
      body: { start: at(day, '11:30') },
    });
    expect(move.status).toBe(409);
    expect(move.body.message).toContain('already teaches "Anatomy evenings"');
    // A cancelled session frees the instructor.
    const [session] = await t.deps.db.select().from(classSessions).where(eq(classSessions.batchId, batch._id));
    const cancel = await t.api('POST', `/api/class-sessions/${session!.id}/cancel`, {
      token: admin.token,
      body: { reason: 'Exam week' },
    });
    expect(cancel.status).toBe(200);
    expect((await book(c, at(day, '11:00'))).status).toBe(201);
  });

  it('is refused in a room a class fills, and fits a room of two beside one class; a move keeps its own place', async () => {
    const c = await clinic();
    const teacher = await t.userWithSession('user');
    const day = dayFromToday(13);
    const single = await makeRoom(t.deps.db, c.branch.id, { name: 'Studio', capacity: 1 });
    await postBatch(t, admin.token, {
      ...batchBody(c.branch.id, teacher.id, day, '14:00', '16:00', single.id),
      name: 'Yoga teachers',
    });
    const full = await book(c, at(day, '15:00'), { roomId: single.id });
    expect(full.status).toBe(409);
    expect(full.body.message).toMatch(/^Room Studio holds 1 at a time and is taken .* by class "Yoga teachers" \(/);
    // Right after the class, the room is free.
    expect((await book(c, at(day, '16:00'), { roomId: single.id })).status).toBe(201);

    const double = await makeRoom(t.deps.db, c.branch.id, { name: 'Hall', capacity: 2 });
    await postBatch(
      t,
      admin.token,
      batchBody(c.branch.id, (await t.userWithSession('user')).id, day, '09:00', '11:00', double.id),
    );
    const beside = await book(c, at(day, '09:00'), { roomId: double.id });
    expect(beside.status).toBe(201);
    // Moving it by half an hour in the same room: it does not count against itself.
    const move = await t.api('PUT', `/api/appointments/${beside.body._id}`, {
      token: admin.token,
      body: { start: at(day, '09:30') },
    });
    expect(move.status).toBe(200);
    // A third occupant of the hall is one too many: the class and the moved appointment fill it.
    const colleague = await makePractitioner(t.deps.db, { branchIds: [c.branch.id], treatmentIds: [c.treatment.id] });
    const third = await book(
      { ...c, practitioner: colleague, booking: await makeBooking(t, admin.token, c.treatment.id) },
      at(day, '10:00'),
      { roomId: double.id },
    );
    expect(third.status).toBe(409);
    expect(third.body.message).toMatch(/^Room Hall holds 2 at a time/);
  });

  it('a class write counts appointments: a batch is refused in a room an appointment fills', async () => {
    const c = await clinic();
    const day = dayFromToday(15);
    const room = await makeRoom(t.deps.db, c.branch.id, { name: 'Treatment 1', capacity: 1 });
    expect((await book(c, at(day, '10:00'), { roomId: room.id })).status).toBe(201);
    const teacher = await t.userWithSession('user');
    const res = await t.api('POST', '/api/batches', {
      token: admin.token,
      body: batchBody(c.branch.id, teacher.id, day, '10:30', '11:30', room.id),
    });
    expect(res.status).toBe(409);
    expect(res.body.message).toContain('Room Treatment 1 holds 1 at a time');
    expect(res.body.message).toContain('an appointment');
  });
});

describe('a class and an appointment racing', () => {
  it('for one room of one: in every round exactly one of the two is stored', async () => {
    for (let round = 0; round < 6; round++) {
      const c = await clinic();
      const teacher = await t.userWithSession('user');
      const room = await makeRoom(t.deps.db, c.branch.id, { capacity: 1 });
      const day = dayFromToday(20 + round);
      const [cls, visit] = await Promise.all([
        t.api('POST', '/api/batches', {
          token: admin.token,
          body: batchBody(c.branch.id, teacher.id, day, '10:00', '11:00', room.id),
        }),
        book(c, at(day, '10:00'), { roomId: room.id }),
      ]);
      expect([cls.status, visit.status].sort()).toEqual([201, 409]);
      const loser = cls.status === 409 ? cls : visit;
      expect(loser.body.message).toMatch(/^Room .* holds 1 at a time/);
      const classes = await t.deps.db
        .select()
        .from(classSessions)
        .where(and(eq(classSessions.roomId, room.id), eq(classSessions.status, 'scheduled')));
      const visits = await t.deps.db.select().from(appointments).where(eq(appointments.roomId, room.id));
      expect(classes.length + visits.length).toBe(1);
    }
  });

  it('for one person: a batch taught by the practitioner and their appointment, exactly one stored', async () => {
    for (let round = 0; round < 6; round++) {
      const c = await clinic();
      const day = dayFromToday(40 + round);
      const [cls, visit] = await Promise.all([
        t.api('POST', '/api/batches', {
          token: admin.token,
          body: batchBody(c.branch.id, c.practitioner.userId, day, '10:00', '11:00'),
        }),
        book(c, at(day, '10:00')),
      ]);
      expect([cls.status, visit.status].sort()).toEqual([201, 409]);
      const loser = cls.status === 409 ? cls : visit;
      expect(loser.body.message).toMatch(/(already teaches|has an appointment)/);
      const taught = await t.deps.db
        .select()
        .from(classSessions)
        .where(
          and(eq(classSessions.instructorId, c.practitioner.userId), inArray(classSessions.status, ['scheduled'])),
        );
      const visits = await t.deps.db
        .select()
        .from(appointments)
        .where(eq(appointments.practitionerId, c.practitioner.id));
      expect(taught.length + visits.length).toBe(1);
    }
  });
});
