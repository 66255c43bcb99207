import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attendanceMarks, auditLog, classSessions } from '../../src/server/db/schema';
import { startTestApp, type TestApp } from '../helpers/app';
import {
  colombo,
  dayFromToday,
  enrolStudent,
  makeAppointment,
  makeClosure,
  makeRoom,
  postBatch,
  TZ,
  weekdayOf,
} from '../helpers/class-factories';
import { makeBranch, postCourse, type MadeUser } from '../helpers/factories';

/**
 * Batches and their class sessions (docs/classes.md) on a real PostgreSQL: generation from the
 * timetable around branch closures, a timetable change that keeps what has started or holds
 * attendance, room and instructor clashes with other classes and with appointments (and a race of
 * parallel creates), moving and cancelling one session.
 */
let t: TestApp;
let admin: MadeUser & { token: string };
let courseId: string;

beforeAll(async () => {
  t = await startTestApp();
  expect(t.deps.config.TIME_ZONE).toBe(TZ);
  admin = await t.userWithSession('admin');
  courseId = await postCourse(t, admin.token, 'Classes', { totalFee: 30000, admissionFee: 3000, installments: 3 });
});
afterAll(() => t.close());

type Session = { _id: string; start: string; end: string; status: string; room: { _id: string } | null };
const sessionsOf = async (batchId: string, query = '') => {
  const res = await t.api<{ data: Session[] }>('GET', `/api/batches/${batchId}/sessions${query}`, {
    token: admin.token,
  });
  expect(res.status).toBe(200);
  return res.body.data;
};

async function setting() {
  const branch = await makeBranch(t.deps.db);
  const instructor = await t.userWithSession('user', { branchId: branch.id, fullName: `Teacher ${Math.random()}` });
  return { branch, instructor };
}

describe('generating class sessions', () => {
  it('makes one session per timetable day between start and end, in TIME_ZONE, minus the branch closures', async () => {
    const { branch, instructor } = await setting();
    const room = await makeRoom(t.deps.db, branch.id);
    const day = dayFromToday(7);
    await makeClosure(t.deps.db, branch.id, dayFromToday(14));
    const batch = await postBatch(t, admin.token, {
      name: 'Diploma in Nursing — weekday',
      courseId,
      branchId: branch.id,
      instructorId: instructor.id,
      startDate: dayFromToday(1),
      endDate: dayFromToday(28),
      capacity: 12,
      timetable: [{ weekday: weekdayOf(day), start: '18:00', end: '20:00', roomId: room.id }],
    });
    expect(batch).toMatchObject({
      name: 'Diploma in Nursing — weekday',
      course: { _id: courseId },
      branch: { _id: branch.id, name: branch.name },
      instructor: { _id: instructor.id },
      startDate: dayFromToday(1),
      endDate: dayFromToday(28),
      capacity: 12,
      timetable: [{ weekday: weekdayOf(day), start: '18:00', end: '20:00', roomId: room.id }],
      status: 'open',
    });
    const sessions = await sessionsOf(batch._id);
    expect(sessions.map((s) => s.start)).toEqual([7, 21, 28].map((d) => colombo(dayFromToday(d), '18:00')));
    expect(sessions.every((s) => s.status === 'scheduled' && s.room?._id === room.id)).toBe(true);
    expect(sessions[0]!.end).toBe(colombo(day, '20:00'));
    // A range in TIME_ZONE days.
    const some = await sessionsOf(batch._id, `?from=${dayFromToday(20)}&to=${dayFromToday(22)}`);
    expect(some.map((s) => s.start)).toEqual([colombo(dayFromToday(21), '18:00')]);
  });

  it('generates the past dates of a batch entered after it began', async () => {
    const { branch, instructor } = await setting();
    const batch = await postBatch(t, admin.token, {
      courseId,
      branchId: branch.id,
      instructorId: instructor.id,
      startDate: dayFromToday(-10),
      endDate: dayFromToday(-1),
      timetable: [{ weekday: weekdayOf(dayFromToday(-3)), start: '09:00', end: '10:00' }],
    });
    expect((await sessionsOf(batch._id)).map((s) => s.start)).toEqual(
      [-10, -3].map((d) => colombo(dayFromToday(d), '09:00')),
    );
  });

  it('on a timetable change replaces the sessions to come, keeping past ones and those with attendance', async () => {
    const { branch, instructor } = await setting();
    const batch = await postBatch(t, admin.token, {
      courseId,
      branchId: branch.id,
      instructorId: instructor.id,
      startDate: dayFromToday(-14),
      endDate: dayFromToday(14),
      timetable: [{ weekday: weekdayOf(dayFromToday(-3)), start: '09:00', end: '10:00' }],
    });
    const before = await sessionsOf(batch._id);
    expect(before.map((s) => s.start)).toEqual([-10, -3, 4, 11].map((d) => colombo(dayFromToday(d), '09:00')));
    const { enrollmentId } = await enrolStudent(t, admin.token, courseId, { branchId: branch.id });
    const join = await t.api('PUT', `/api/enrollments/${enrollmentId}/batch`, {
      token: admin.token,
      body: { batchId: batch._id, joinedOn: dayFromToday(-14) },
    });
    expect(join.status).toBe(200);
    const mark = (id: string, status: string) =>
      t.api('PUT', `/api/class-sessions/${id}/attendance`, {
        token: admin.token,
        body: { marks: [{ enrollmentId, status }] },
      });
    expect((await mark(before[1]!._id, 'present')).status).toBe(200);
    expect((await mark(before[2]!._id, 'excused')).status).toBe(200);

    const put = await t.api('PUT', `/api/batches/${batch._id}`, {
      token: admin.token,
      body: { timetable: [{ weekday: weekdayOf(dayFromToday(-2)), start: '19:00', end: '20:30' }] },
    });
    expect(put.status).toBe(200);
    expect(put.body.timetable).toEqual([
      { weekday: weekdayOf(dayFromToday(-2)), start: '19:00', end: '20:30', roomId: null, room: null },
    ]);
    const after = await sessionsOf(batch._id);
    expect(after.map((s) => s.start)).toEqual([
      colombo(dayFromToday(-10), '09:00'),
      colombo(dayFromToday(-3), '09:00'),
      colombo(dayFromToday(4), '09:00'),
      colombo(dayFromToday(5), '19:00'),
      colombo(dayFromToday(12), '19:00'),
    ]);
    // The kept sessions are the same rows, with their marks.
    expect(after.slice(0, 3).map((s) => s._id)).toEqual(before.slice(0, 3).map((s) => s._id));
    const marks = await t.deps.db.select().from(attendanceMarks).where(eq(attendanceMarks.enrollmentId, enrollmentId));
    expect(marks.map((m) => m.status).sort()).toEqual(['excused', 'present']);
  });

  it('refuses bad timetables and dates with 400, unknown references with 404, and roles other than admin', async () => {
    const { branch, instructor } = await setting();
    const base = {
      courseId,
      branchId: branch.id,
      instructorId: instructor.id,
      startDate: dayFromToday(1),
      endDate: dayFromToday(30),
      name: 'Bad',
      capacity: 10,
      timetable: [{ weekday: 'monday', start: '18:00', end: '20:00' }],
    };
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ endDate: dayFromToday(0) }, 400, 'The end date must be on or after the start date.'],
      [
        { timetable: [{ weekday: 'monday', start: '20:00', end: '18:00' }] },
        400,
        'Each timetable slot must end after it starts.',
      ],
      [
        { timetable: [{ weekday: 'funday', start: '18:00', end: '20:00' }] },
        400,
        'Weekday must be one of monday, tuesday, wednesday, thursday, friday, saturday, sunday.',
      ],
      [
        { timetable: [{ weekday: 'monday', start: '6pm', end: '20:00' }] },
        400,
        'Times must be HH:MM (24-hour), such as 18:00.',
      ],
      [
        {
          timetable: [
            { weekday: 'monday', start: '18:00', end: '20:00' },
            { weekday: 'monday', start: '19:00', end: '21:00' },
          ],
        },
        400,
        'Two timetable slots on Monday overlap.',
      ],
      [{ capacity: 0 }, 400, 'Capacity must be a whole number from 1 to 1000.'],
      [{ endDate: dayFromToday(2000) }, 400, 'A batch can run for at most three years.'],
      [{ courseId: crypto.randomUUID() }, 404, 'Course not found.'],
      [{ instructorId: crypto.randomUUID() }, 404, 'Instructor not found.'],
      [
        { timetable: [{ weekday: 'monday', start: '18:00', end: '20:00', roomId: crypto.randomUUID() }] },
        404,
        'Room not found.',
      ],
    ];
    for (const [change, status, message] of cases) {
      const res = await t.api('POST', '/api/batches', { token: admin.token, body: { ...base, ...change } });
      expect([res.status, res.body.message], JSON.stringify(change)).toEqual([status, message]);
    }
    const elsewhere = await makeRoom(t.deps.db, (await makeBranch(t.deps.db)).id, { name: 'Far Hall' });
    const far = await t.api('POST', '/api/batches', {
      token: admin.token,
      body: { ...base, timetable: [{ weekday: 'monday', start: '18:00', end: '20:00', roomId: elsewhere.id }] },
    });
    expect([far.status, far.body.message]).toEqual([400, 'Room Far Hall is at another branch than the batch.']);
    const manager = await t.userWithSession('manager');
    expect((await t.api('POST', '/api/batches', { token: manager.token, body: base })).status).toBe(403);
    expect((await t.api('GET', '/api/batches', { token: manager.token })).status).toBe(200);
  });
});

describe('room and instructor clashes', () => {
  const monday = dayFromToday(7);
  const slot = (start: string, end: string, roomId?: string) => [{ weekday: weekdayOf(monday), start, end, roomId }];
  const body = (branchId: string, instructorId: string, timetable: ReturnType<typeof slot>) => ({
    name: `Clash ${Math.random().toString(36).slice(2, 7)}`,
    courseId,
    branchId,
    instructorId,
    startDate: dayFromToday(1),
    endDate: dayFromToday(10),
    capacity: 10,
    timetable,
  });

  it('fills a room up to its capacity with classes, then answers 409 naming the clash', async () => {
    const { branch, instructor } = await setting();
    const other = await t.userWithSession('user', { fullName: 'Second Teacher' });
    const third = await t.userWithSession('user', { fullName: 'Third Teacher' });
    const room = await makeRoom(t.deps.db, branch.id, { name: 'Studio A', capacity: 2 });
    const first = await postBatch(t, admin.token, {
      ...body(branch.id, instructor.id, slot('18:00', '20:00', room.id)),
      name: 'Yoga Jan',
    });
    // Two at once fit a room of two; touching ends do not overlap.
    await postBatch(t, admin.token, body(branch.id, other.id, slot('19:00', '21:00', room.id)));
    await postBatch(t, admin.token, body(branch.id, third.id, slot('20:00', '21:00', room.id)));
    const fourth = await t.userWithSession('user');
    const res = await t.api('POST', '/api/batches', {
      token: admin.token,
      body: body(branch.id, fourth.id, slot('18:30', '19:30', room.id)),
    });
    expect(res.status).toBe(409);
    expect(res.body.message).toContain('Room Studio A holds 2 at a time');
    expect(res.body.message).toContain('class "Yoga Jan"');
    // Outside the busy hours the room is free.
    await postBatch(t, admin.token, body(branch.id, fourth.id, slot('07:00', '08:00', room.id)));
    expect(first._id).toBeTruthy();
  });

  it('never puts an instructor in two classes at once', async () => {
    const { branch, instructor } = await setting();
    await postBatch(t, admin.token, {
      ...body(branch.id, instructor.id, slot('18:00', '20:00')),
      name: 'Anatomy Evening',
    });
    const res = await t.api('POST', '/api/batches', {
      token: admin.token,
      body: body(branch.id, instructor.id, slot('19:30', '21:00')),
    });
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/already teaches "Anatomy Evening" \w{3} \d+ \w{3} \d{4}, 18:00–20:00\./);
  });

  it('counts live appointments in the room and the instructor’s own appointments as a practitioner', async () => {
    const { branch, instructor } = await setting();
    const room = await makeRoom(t.deps.db, branch.id, { name: 'Therapy 1', capacity: 1 });
    const therapist = await t.userWithSession('manager');
    await makeAppointment(t.deps.db, {
      branchId: branch.id,
      practitionerUserId: therapist.id,
      roomId: room.id,
      start: colombo(monday, '18:30'),
      end: colombo(monday, '19:30'),
    });
    const inRoom = await t.api('POST', '/api/batches', {
      token: admin.token,
      body: body(branch.id, instructor.id, slot('18:00', '20:00', room.id)),
    });
    expect(inRoom.status).toBe(409);
    expect(inRoom.body.message).toContain('Room Therapy 1 holds 1 at a time');
    expect(inRoom.body.message).toContain('an appointment');

    // The instructor is the practitioner of an appointment elsewhere at that time.
    await makeAppointment(t.deps.db, {
      branchId: branch.id,
      practitionerUserId: instructor.id,
      start: colombo(monday, '10:00'),
      end: colombo(monday, '11:00'),
    });
    const busy = await t.api('POST', '/api/batches', {
      token: admin.token,
      body: body(branch.id, instructor.id, slot('10:30', '12:00')),
    });
    expect(busy.status).toBe(409);
    expect(busy.body.message).toMatch(/has an appointment \w{3} \d+ \w{3} \d{4}, 10:00–11:00\./);

    // A cancelled appointment frees its time and room.
    const freed = await t.userWithSession('user');
    await makeAppointment(t.deps.db, {
      branchId: branch.id,
      practitionerUserId: freed.id,
      roomId: room.id,
      start: colombo(monday, '07:00'),
      end: colombo(monday, '08:00'),
      status: 'cancelled',
    });
    await postBatch(t, admin.token, body(branch.id, freed.id, slot('07:00', '08:00', room.id)));
  });

  it('lets exactly one of parallel creates take a room of one, and one of parallel creates of one instructor', async () => {
    const { branch } = await setting();
    const room = await makeRoom(t.deps.db, branch.id, { capacity: 1 });
    const teachers = await Promise.all(Array.from({ length: 5 }, () => t.userWithSession('user')));
    const roomRace = await Promise.all(
      teachers.map((x) =>
        t.api('POST', '/api/batches', {
          token: admin.token,
          body: body(branch.id, x.id, slot('14:00', '15:00', room.id)),
        }),
      ),
    );
    expect(roomRace.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409]);
    const one = await t.userWithSession('user');
    const rooms = await Promise.all(Array.from({ length: 5 }, () => makeRoom(t.deps.db, branch.id)));
    const personRace = await Promise.all(
      rooms.map((r) =>
        t.api('POST', '/api/batches', {
          token: admin.token,
          body: body(branch.id, one.id, slot('16:00', '17:00', r.id)),
        }),
      ),
    );
    expect(personRace.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409]);
    const taught = await t.deps.db
      .select()
      .from(classSessions)
      .where(and(eq(classSessions.instructorId, one.id), eq(classSessions.status, 'scheduled')));
    expect(taught).toHaveLength(1);
  });
});

describe('one session at a time', () => {
  it('moves a session to come with the same checks, and cancels one with a reason', async () => {
    const { branch, instructor } = await setting();
    const room = await makeRoom(t.deps.db, branch.id, { name: 'Lab', capacity: 1 });
    const day = dayFromToday(9);
    const busy = await postBatch(t, admin.token, {
      name: 'Chemistry',
      courseId,
      branchId: branch.id,
      instructorId: (await t.userWithSession('user')).id,
      startDate: day,
      endDate: day,
      timetable: [{ weekday: weekdayOf(day), start: '10:00', end: '12:00', roomId: room.id }],
    });
    const batch = await postBatch(t, admin.token, {
      courseId,
      branchId: branch.id,
      instructorId: instructor.id,
      startDate: day,
      endDate: day,
      timetable: [{ weekday: weekdayOf(day), start: '14:00', end: '15:00' }],
    });
    const [s] = await sessionsOf(batch._id);
    const into = await t.api('PUT', `/api/class-sessions/${s!._id}`, {
      token: admin.token,
      body: { start: colombo(day, '11:00'), end: colombo(day, '12:00'), roomId: room.id },
    });
    expect(into.status).toBe(409);
    expect(into.body.message).toContain('class "Chemistry"');
    const moved = await t.api('PUT', `/api/class-sessions/${s!._id}`, {
      token: admin.token,
      body: { start: colombo(day, '12:00'), end: colombo(day, '13:00'), roomId: room.id },
    });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({
      start: colombo(day, '12:00'),
      end: colombo(day, '13:00'),
      room: { _id: room.id },
    });
    const past = await t.api('PUT', `/api/class-sessions/${s!._id}`, {
      token: admin.token,
      body: { start: colombo(dayFromToday(-1), '12:00'), end: colombo(dayFromToday(-1), '13:00') },
    });
    expect([past.status, past.body.message]).toEqual([400, 'A session can only be moved to a time still to come.']);

    const noReason = await t.api('POST', `/api/class-sessions/${s!._id}/cancel`, { token: admin.token, body: {} });
    expect([noReason.status, noReason.body.message]).toEqual([400, 'Give a reason for cancelling the session.']);
    const cancelled = await t.api('POST', `/api/class-sessions/${s!._id}/cancel`, {
      token: admin.token,
      body: { reason: 'Instructor ill' },
    });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ status: 'cancelled', reason: 'Instructor ill' });
    expect(
      (await t.api('POST', `/api/class-sessions/${s!._id}/cancel`, { token: admin.token, body: { reason: 'x' } }))
        .status,
    ).toBe(409);
    // A cancelled session frees its room: the Chemistry session can move into its hour.
    const [chem] = await sessionsOf(busy._id);
    const reuse = await t.api('PUT', `/api/class-sessions/${chem!._id}`, {
      token: admin.token,
      body: { start: colombo(day, '12:00'), end: colombo(day, '13:00') },
    });
    expect(reuse.status).toBe(200);

    const entries = await t.deps.db.select().from(auditLog).where(eq(auditLog.entityId, s!._id));
    expect(entries.map((e) => [e.action, e.entityType, e.actorId])).toEqual(
      expect.arrayContaining([
        ['update', 'class_session', admin.id],
        ['cancel', 'class_session', admin.id],
      ]),
    );
  });

  it('deletes a batch without attendance, and closes one that has some', async () => {
    const { branch, instructor } = await setting();
    const plain = await postBatch(t, admin.token, {
      courseId,
      branchId: branch.id,
      instructorId: instructor.id,
      startDate: dayFromToday(1),
      endDate: dayFromToday(20),
      timetable: [{ weekday: 'friday', start: '08:00', end: '09:00' }],
    });
    const del = await t.api('DELETE', `/api/batches/${plain._id}`, { token: admin.token });
    expect([del.status, del.body.message]).toEqual([200, 'Batch deleted.']);
    expect((await t.api('GET', `/api/batches/${plain._id}`, { token: admin.token })).status).toBe(404);

    const held = await postBatch(t, admin.token, {
      courseId,
      branchId: branch.id,
      instructorId: instructor.id,
      startDate: dayFromToday(-8),
      endDate: dayFromToday(20),
      timetable: [{ weekday: weekdayOf(dayFromToday(-2)), start: '08:00', end: '09:00' }],
    });
    const { enrollmentId } = await enrolStudent(t, admin.token, courseId);
    await t.api('PUT', `/api/enrollments/${enrollmentId}/batch`, {
      token: admin.token,
      body: { batchId: held._id, joinedOn: dayFromToday(-8) },
    });
    const [first] = await sessionsOf(held._id);
    await t.api('PUT', `/api/class-sessions/${first!._id}/attendance`, {
      token: admin.token,
      body: { allPresent: true },
    });
    const close = await t.api('DELETE', `/api/batches/${held._id}`, { token: admin.token });
    expect(close.status).toBe(200);
    expect(close.body.message).toContain('closed instead of deleted');
    const kept = await t.api('GET', `/api/batches/${held._id}`, { token: admin.token });
    expect(kept.body.status).toBe('closed');
    expect((await sessionsOf(held._id)).map((s) => s._id)).toEqual([first!._id]);
  });
});

describe("the calendar's class sessions", () => {
  it("lists a branch's scheduled sessions over a range for staff: not cancelled ones, not another branch's", async () => {
    const { branch, instructor } = await setting();
    const other = await setting();
    const room = await makeRoom(t.deps.db, branch.id);
    const day = dayFromToday(3);
    const batch = await postBatch(t, admin.token, {
      name: 'Anatomy evening',
      courseId,
      branchId: branch.id,
      instructorId: instructor.id,
      startDate: day,
      endDate: dayFromToday(10),
      timetable: [{ weekday: weekdayOf(day), start: '18:00', end: '20:00', roomId: room.id }],
    });
    await postBatch(t, admin.token, {
      courseId,
      branchId: other.branch.id,
      instructorId: other.instructor.id,
      startDate: day,
      endDate: day,
      timetable: [{ weekday: weekdayOf(day), start: '09:00', end: '10:00' }],
    });
    const [first, second] = await sessionsOf(batch._id);
    const cancel = await t.api('POST', `/api/class-sessions/${second!._id}/cancel`, {
      token: admin.token,
      body: { reason: 'Public holiday' },
    });
    expect(cancel.status).toBe(200);

    const manager = await t.userWithSession('manager');
    const week = await t.trpc(manager.token).classSessions.inBranch.query({
      branchId: branch.id,
      from: day,
      to: dayFromToday(10),
    });
    expect(week.data).toEqual([
      expect.objectContaining({
        _id: first!._id,
        batch: { _id: batch._id, name: 'Anatomy evening' },
        instructor: { _id: instructor.id, fullName: expect.stringMatching(/^Teacher /) },
        start: colombo(day, '18:00'),
        room: { _id: room.id, name: expect.any(String) },
        status: 'scheduled',
      }),
    ]);
    // Days are TIME_ZONE days: the day before the first session holds none.
    const before = await t.trpc(manager.token).classSessions.inBranch.query({
      branchId: branch.id,
      from: dayFromToday(2),
      to: dayFromToday(2),
    });
    expect(before.data).toEqual([]);

    await expect(
      t.trpc(manager.token).classSessions.inBranch.query({ branchId: branch.id, from: day, to: dayFromToday(60) }),
    ).rejects.toMatchObject({ message: 'The calendar shows at most 31 days of classes at once.' });
    const student = await t.userWithSession('student');
    await expect(
      t.trpc(student.token).classSessions.inBranch.query({ branchId: branch.id, from: day, to: day }),
    ).rejects.toMatchObject({ data: { httpStatus: 403 } });
  });
});
