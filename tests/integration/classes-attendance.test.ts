import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../src/server/db/schema';
import { startTestApp, type TestApp } from '../helpers/app';
import { colombo, dayFromToday, enrolStudent, postBatch, TZ, weekdayOf } from '../helpers/class-factories';
import { makeBranch, postCourse, type MadeUser } from '../helpers/factories';

/**
 * The roster and the register (docs/classes.md): seats and the waiting list (under parallel joins
 * too), when marks may be taken, the rates with late, excused and late joiners, the falling-behind
 * list with what is owed, who may do what (the instructor whatever their role, the branch scope),
 * and the audit entries.
 */
let t: TestApp;
let admin: MadeUser & { token: string };
let courseId: string;

beforeAll(async () => {
  t = await startTestApp();
  expect(t.deps.config.TIME_ZONE).toBe(TZ);
  expect(t.deps.config.ATTENDANCE_THRESHOLD).toBe(75);
  admin = await t.userWithSession('admin');
  courseId = await postCourse(t, admin.token, 'Register', { totalFee: 30000, admissionFee: 3000, installments: 3 });
});
afterAll(() => t.close());

type Session = { _id: string; start: string; status: string };
const sessionsOf = async (batchId: string, token = admin.token) => {
  const res = await t.api<{ data: Session[] }>('GET', `/api/batches/${batchId}/sessions`, { token });
  expect(res.status).toBe(200);
  return res.body.data;
};
const join = (enrollmentId: string, body: Record<string, unknown>, token = admin.token) =>
  t.api('PUT', `/api/enrollments/${enrollmentId}/batch`, { token, body });
const mark = (sessionId: string, body: unknown, token = admin.token) =>
  t.api('PUT', `/api/class-sessions/${sessionId}/attendance`, { token, body });

/** A batch at a new branch taught by a user of role `user`, Fridays-to-come by default. */
async function batchAt(o: { capacity?: number; startDate?: string; endDate?: string; timetable?: unknown[] } = {}) {
  const branch = await makeBranch(t.deps.db);
  const instructor = await t.userWithSession('user', { branchId: branch.id });
  const day = dayFromToday(5);
  const batch = await postBatch(t, admin.token, {
    courseId,
    branchId: branch.id,
    instructorId: instructor.id,
    startDate: o.startDate ?? dayFromToday(1),
    endDate: o.endDate ?? dayFromToday(30),
    capacity: o.capacity ?? 20,
    timetable: (o.timetable as never) ?? [{ weekday: weekdayOf(day), start: '18:00', end: '20:00' }],
  });
  return { branch, instructor, batch };
}

describe('the roster', () => {
  it('fills the seats, answers 409 when full, keeps a waiting list and lets its first in when a seat frees', async () => {
    const { branch, batch } = await batchAt({ capacity: 2 });
    const students = [];
    for (const name of ['Amal', 'Bimal', 'Chamari', 'Dilan'])
      students.push(await enrolStudent(t, admin.token, courseId, { branchId: branch.id, fullName: name }));
    const [a, b, c, d] = students as [
      (typeof students)[0],
      (typeof students)[0],
      (typeof students)[0],
      (typeof students)[0],
    ];
    const first = await join(a.enrollmentId, { batchId: batch._id });
    expect(first.status).toBe(200);
    // joinedOn defaults to today, or the batch's start when that is later.
    expect(first.body).toMatchObject({ status: 'member', joinedOn: dayFromToday(1), batchId: batch._id });
    expect((await join(b.enrollmentId, { batchId: batch._id, joinedOn: dayFromToday(3) })).status).toBe(200);
    const full = await join(c.enrollmentId, { batchId: batch._id });
    expect([full.status, full.body.message]).toEqual([
      409,
      'This batch is full: all 2 seats are taken. Put the student on the waiting list instead.',
    ]);
    expect((await join(c.enrollmentId, { batchId: batch._id, waitlist: true })).body.status).toBe('waitlist');
    expect((await join(d.enrollmentId, { batchId: batch._id, waitlist: true })).body.status).toBe('waitlist');
    let roster = await t.api('GET', `/api/batches/${batch._id}/roster`, { token: admin.token });
    expect(roster.body.data.map((r: { student: { fullName: string } }) => r.student.fullName)).toEqual([
      'Amal',
      'Bimal',
    ]);
    expect(roster.body.data[1]).toMatchObject({ enrollmentId: b.enrollmentId, joinedOn: dayFromToday(3), rate: null });
    expect(roster.body.waitlist.map((r: { enrollmentId: string }) => r.enrollmentId)).toEqual([
      c.enrollmentId,
      d.enrollmentId,
    ]);

    const leave = await t.api('DELETE', `/api/enrollments/${a.enrollmentId}/batch`, { token: admin.token });
    expect(leave.status).toBe(200);
    roster = await t.api('GET', `/api/batches/${batch._id}/roster`, { token: admin.token });
    expect(roster.body.data.map((r: { student: { fullName: string } }) => r.student.fullName)).toEqual([
      'Bimal',
      'Chamari',
    ]);
    expect(roster.body.waitlist.map((r: { enrollmentId: string }) => r.enrollmentId)).toEqual([d.enrollmentId]);
    const entries = await t.deps.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, 'roster'), eq(auditLog.entityId, c.enrollmentId)));
    expect(entries.map((e) => e.summary)).toEqual(
      expect.arrayContaining([expect.stringMatching(/joined batch .* from its waiting list/)]),
    );
  });

  it('gives a last seat to exactly one of parallel joins', async () => {
    const { branch, batch } = await batchAt({ capacity: 1 });
    const students = await Promise.all(
      Array.from({ length: 5 }, () => enrolStudent(t, admin.token, courseId, { branchId: branch.id })),
    );
    const answers = await Promise.all(students.map((s) => join(s.enrollmentId, { batchId: batch._id })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409, 409]);
    const roster = await t.api('GET', `/api/batches/${batch._id}/roster`, { token: admin.token });
    expect(roster.body.data).toHaveLength(1);
  });

  it('takes only an enrolment of the course, at the student’s branch, from the batch’s start', async () => {
    const { branch, batch } = await batchAt();
    const otherCourse = await postCourse(t, admin.token, 'Other', { totalFee: 100, admissionFee: 0, installments: 1 });
    const wrongCourse = await enrolStudent(t, admin.token, otherCourse, { branchId: branch.id });
    expect((await join(wrongCourse.enrollmentId, { batchId: batch._id })).body.message).toBe(
      'This enrolment is for another course than the batch.',
    );
    const elsewhere = await enrolStudent(t, admin.token, courseId, { branchId: (await makeBranch(t.deps.db)).id });
    const far = await join(elsewhere.enrollmentId, { batchId: batch._id });
    expect([far.status, far.body.message]).toEqual([409, "The batch is at another branch than the student's."]);
    const noBranch = await enrolStudent(t, admin.token, courseId);
    expect((await join(noBranch.enrollmentId, { batchId: batch._id })).status).toBe(200);
    const early = await enrolStudent(t, admin.token, courseId, { branchId: branch.id });
    const before = await join(early.enrollmentId, { batchId: batch._id, joinedOn: dayFromToday(0) });
    expect(before.status).toBe(400);
    expect(before.body.message).toMatch(/^Joined on cannot be before the batch starts/);
    expect((await join(early.enrollmentId, { batchId: crypto.randomUUID() })).status).toBe(404);
  });
});

describe('taking attendance', () => {
  it('takes marks for a started session only, excused ahead, none on a cancelled one, and only for its roster', async () => {
    const { branch, instructor, batch } = await batchAt({
      startDate: dayFromToday(-8),
      endDate: dayFromToday(12),
      timetable: [{ weekday: weekdayOf(dayFromToday(-2)), start: '09:00', end: '10:00' }],
    });
    const a = await enrolStudent(t, admin.token, courseId, { branchId: branch.id, fullName: 'Early Bird' });
    const late = await enrolStudent(t, admin.token, courseId, { branchId: branch.id, fullName: 'Late Joiner' });
    await join(a.enrollmentId, { batchId: batch._id, joinedOn: dayFromToday(-8) });
    await join(late.enrollmentId, { batchId: batch._id, joinedOn: dayFromToday(1) });
    const [past, future, later] = await sessionsOf(batch._id);
    expect(past!.start).toBe(colombo(dayFromToday(-2), '09:00'));

    // The past session's roster holds only who had joined by its day.
    const register = await t.api('GET', `/api/class-sessions/${past!._id}/attendance`, { token: instructor.token });
    expect(register.status).toBe(200);
    expect(register.body.marks).toEqual([
      {
        enrollmentId: a.enrollmentId,
        student: { _id: a.student.id, fullName: 'Early Bird' },
        status: null,
        note: null,
      },
    ]);
    const notYet = await mark(past!._id, { marks: [{ enrollmentId: late.enrollmentId, status: 'present' }] });
    expect([notYet.status, notYet.body.message]).toEqual([409, "Late Joiner is not on this session's roster."]);

    const ok = await mark(
      past!._id,
      { marks: [{ enrollmentId: a.enrollmentId, status: 'late', note: 'Bus' }] },
      instructor.token,
    );
    expect(ok.status).toBe(200);
    expect(ok.body.marks).toEqual([expect.objectContaining({ status: 'late', note: 'Bus' })]);

    const ahead = await mark(future!._id, { marks: [{ enrollmentId: a.enrollmentId, status: 'present' }] });
    expect([ahead.status, ahead.body.message]).toEqual([
      409,
      'This session has not started yet: only excused can be marked ahead.',
    ]);
    expect((await mark(future!._id, { allPresent: true })).status).toBe(409);
    const excused = await mark(future!._id, { marks: [{ enrollmentId: a.enrollmentId, status: 'excused' }] });
    expect(excused.status).toBe(200);

    await t.api('POST', `/api/class-sessions/${later!._id}/cancel`, {
      token: admin.token,
      body: { reason: 'Holiday' },
    });
    const onCancelled = await mark(later!._id, { marks: [{ enrollmentId: a.enrollmentId, status: 'excused' }] });
    expect([onCancelled.status, onCancelled.body.message]).toEqual([
      409,
      'This session is cancelled: it takes no attendance.',
    ]);

    const bad = await mark(past!._id, { marks: [{ enrollmentId: a.enrollmentId, status: 'sick' }] });
    expect([bad.status, bad.body.message]).toEqual([400, 'Status must be one of present, late, absent, excused.']);
    expect((await mark(past!._id, {})).body.message).toBe('Send either marks or allPresent: true.');

    // Every mark is in the audit trail with who took it, in the enrolment's History too.
    const entries = await t.deps.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, 'attendance'), eq(auditLog.parentId, a.enrollmentId)));
    expect(entries.map((e) => [e.entityId, e.actorId, e.action])).toEqual(
      expect.arrayContaining([
        [past!._id, instructor.id, 'create'],
        [future!._id, admin.id, 'create'],
      ]),
    );
    expect(entries.find((e) => e.entityId === past!._id)!.changes).toEqual(
      expect.arrayContaining([{ field: 'status', before: null, after: 'late' }]),
    );
  });

  it('lets only staff and the batch’s own instructor reach a register', async () => {
    const { batch } = await batchAt({
      startDate: dayFromToday(-8),
      endDate: dayFromToday(-1),
      timetable: [{ weekday: weekdayOf(dayFromToday(-2)), start: '09:00', end: '10:00' }],
    });
    const [s] = await sessionsOf(batch._id);
    const stranger = await t.userWithSession('user');
    const student = await t.userWithSession('student');
    const manager = await t.userWithSession('manager');
    for (const who of [stranger, student]) {
      expect((await t.api('GET', `/api/class-sessions/${s!._id}/attendance`, { token: who.token })).status).toBe(403);
      expect((await mark(s!._id, { allPresent: true }, who.token)).status).toBe(403);
      expect((await t.api('GET', `/api/batches/${batch._id}/sessions`, { token: who.token })).status).toBe(403);
      expect(
        (await t.api('GET', `/api/class-sessions/${crypto.randomUUID()}/attendance`, { token: who.token })).status,
      ).toBe(403);
      expect((await t.api('GET', `/api/batches`, { token: who.token })).status).toBe(403);
      expect((await t.api('GET', `/api/class-sessions`, { token: who.token })).status).toBe(403);
    }
    expect((await mark(s!._id, { allPresent: true }, manager.token)).status).toBe(200);
    expect(
      (await t.api('PUT', `/api/batches/${batch._id}`, { token: manager.token, body: { capacity: 3 } })).status,
    ).toBe(403);
    // tRPC answers the same.
    await expect(t.trpc(stranger.token).classSessions.attendance.query({ id: s!._id })).rejects.toMatchObject({
      data: { code: 'FORBIDDEN' },
    });
  });
});

describe('rates and falling behind', () => {
  it('counts present and late over held sessions since joining, excused and unmarked apart, and lists who falls behind with what they owe', async () => {
    // Every day from 12 days ago to yesterday: twelve held sessions.
    const everyDay = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((weekday) => ({
      weekday,
      start: '08:00',
      end: '09:00',
    }));
    const { branch, instructor, batch } = await batchAt({
      startDate: dayFromToday(-12),
      endDate: dayFromToday(-1),
      timetable: everyDay,
    });
    const sessions = await sessionsOf(batch._id);
    expect(sessions).toHaveLength(12);
    const people = {
      steady: await enrolStudent(t, admin.token, courseId, { branchId: branch.id, fullName: 'Steady' }),
      lateJoiner: await enrolStudent(t, admin.token, courseId, { branchId: branch.id, fullName: 'Late Joiner' }),
      fading: await enrolStudent(t, admin.token, courseId, { branchId: branch.id, fullName: 'Fading' }),
      silent: await enrolStudent(t, admin.token, courseId, { branchId: branch.id, fullName: 'Silent' }),
    };
    for (const [key, p] of Object.entries(people)) {
      const joinedOn = key === 'lateJoiner' ? dayFromToday(-6) : dayFromToday(-12);
      expect((await join(p.enrollmentId, { batchId: batch._id, joinedOn })).status).toBe(200);
    }
    // steady: late at 1, absent at 5 and 11, present otherwise → 10 of 12.
    // lateJoiner (sessions 6–11): present 6, 7; excused 8; absent 9; 10 and 11 unmarked → 2 of 3.
    // fading: present 0–8, absent 9–11 → 9 of 12 = 75.0 (not under), but absent three in a row.
    const plan: Record<keyof typeof people, Array<string | null>> = {
      steady: [
        'present',
        'late',
        'present',
        'present',
        'present',
        'absent',
        'present',
        'present',
        'present',
        'present',
        'present',
        'absent',
      ],
      lateJoiner: [null, null, null, null, null, null, 'present', 'present', 'excused', 'absent', null, null],
      fading: [...Array<string>(9).fill('present'), 'absent', 'absent', 'absent'],
      silent: Array<null>(12).fill(null),
    };
    for (let i = 0; i < 12; i++) {
      const marks = (Object.keys(people) as Array<keyof typeof people>)
        .filter((k) => plan[k][i])
        .map((k) => ({ enrollmentId: people[k].enrollmentId, status: plan[k][i] }));
      if (marks.length) expect((await mark(sessions[i]!._id, { marks }, instructor.token)).status).toBe(200);
    }

    const of = async (k: keyof typeof people) =>
      (await t.api('GET', `/api/enrollments/${people[k].enrollmentId}/attendance`, { token: admin.token })).body;
    expect(await of('steady')).toMatchObject({
      rate: 83.3,
      held: 12,
      present: 9,
      late: 1,
      absent: 2,
      excused: 0,
      unmarked: 0,
    });
    const lateJoiner = await of('lateJoiner');
    expect(lateJoiner).toMatchObject({ rate: 66.7, held: 6, present: 2, late: 0, absent: 1, excused: 1, unmarked: 2 });
    expect(lateJoiner.sessions.map((s: { sessionId: string }) => s.sessionId)).toEqual(
      sessions.slice(6).map((s) => s._id),
    );
    expect(lateJoiner.sessions[2]).toEqual({
      sessionId: sessions[8]!._id,
      start: sessions[8]!.start,
      status: 'excused',
    });
    expect(await of('fading')).toMatchObject({ rate: 75, absent: 3 });
    expect(await of('silent')).toMatchObject({ rate: null, held: 12, unmarked: 12 });

    const roster = await t.api('GET', `/api/batches/${batch._id}/roster`, { token: admin.token });
    expect(
      Object.fromEntries(
        roster.body.data.map((r: { student: { fullName: string }; rate: number | null }) => [
          r.student.fullName,
          r.rate,
        ]),
      ),
    ).toEqual({ Steady: 83.3, 'Late Joiner': 66.7, Fading: 75, Silent: null });

    const behind = await t.api('GET', `/api/attendance/falling-behind?batchId=${batch._id}`, { token: admin.token });
    expect(behind.status).toBe(200);
    expect(behind.body.threshold).toBe(75);
    expect(behind.body.data).toEqual([
      {
        enrollmentId: people.lateJoiner.enrollmentId,
        student: { _id: people.lateJoiner.student.id, fullName: 'Late Joiner' },
        batch: { _id: batch._id, name: batch.name },
        rate: 66.7,
        absentInARow: 1,
        outstanding: [{ currency: 'LKR', amount: 33000 }],
      },
      expect.objectContaining({ enrollmentId: people.fading.enrollmentId, rate: 75, absentInARow: 3 }),
    ]);
    // What is owed is the enrolment's own outstanding figure.
    const enrolment = await t.api('GET', `/api/enrollments/${people.fading.enrollmentId}`, { token: admin.token });
    expect(behind.body.data[1].outstanding).toEqual([{ currency: 'LKR', amount: enrolment.body.outstandingAmount }]);
    const byBranch = await t.api('GET', `/api/attendance/falling-behind?branchId=${branch.id}`, { token: admin.token });
    expect(byBranch.body.data).toHaveLength(2);
  });

  it('keeps the marks an enrolment took in its old batch when it moves', async () => {
    const timetable = [{ weekday: weekdayOf(dayFromToday(-2)), start: '09:00', end: '10:00' }];
    const { branch, batch } = await batchAt({ startDate: dayFromToday(-8), endDate: dayFromToday(10), timetable });
    const next = await postBatch(t, admin.token, {
      courseId,
      branchId: branch.id,
      instructorId: (await t.userWithSession('user')).id,
      startDate: dayFromToday(1),
      endDate: dayFromToday(20),
      timetable,
    });
    const s = await enrolStudent(t, admin.token, courseId, { branchId: branch.id });
    await join(s.enrollmentId, { batchId: batch._id, joinedOn: dayFromToday(-8) });
    const [held] = await sessionsOf(batch._id);
    await mark(held!._id, { marks: [{ enrollmentId: s.enrollmentId, status: 'absent' }] });
    const moved = await join(s.enrollmentId, { batchId: next._id });
    expect(moved.body).toMatchObject({ batchId: next._id, status: 'member' });
    const figures = await t.api('GET', `/api/enrollments/${s.enrollmentId}/attendance`, { token: admin.token });
    expect(figures.body).toMatchObject({ rate: 0, held: 1, absent: 1 });
    // The old session's register still shows the mark.
    const register = await t.api('GET', `/api/class-sessions/${held!._id}/attendance`, { token: admin.token });
    expect(register.body.marks).toEqual([expect.objectContaining({ enrollmentId: s.enrollmentId, status: 'absent' })]);
  });
});

describe('branch scope', () => {
  it('limits a manager to the batches, registers and lists of their own branch', async () => {
    const superadmin = await t.userWithSession('superadmin');
    const mine = await batchAt({
      startDate: dayFromToday(-8),
      endDate: dayFromToday(-1),
      timetable: [{ weekday: weekdayOf(dayFromToday(-2)), start: '09:00', end: '10:00' }],
    });
    const theirs = await batchAt({
      startDate: dayFromToday(-8),
      endDate: dayFromToday(-1),
      timetable: [{ weekday: weekdayOf(dayFromToday(-2)), start: '11:00', end: '12:00' }],
    });
    const manager = await t.userWithSession('manager', { branchId: mine.branch.id });
    await t.trpc(superadmin.token).settings.updateAccess.mutate({ managersOwnBranchOnly: true });
    try {
      const list = await t.api('GET', '/api/batches', { token: manager.token });
      expect(list.body.data.map((b: { _id: string }) => b._id)).toEqual([mine.batch._id]);
      expect((await t.api('GET', `/api/batches/${theirs.batch._id}`, { token: manager.token })).status).toBe(404);
      const [other] = await sessionsOf(theirs.batch._id);
      expect(
        (await t.api('GET', `/api/class-sessions/${other!._id}/attendance`, { token: manager.token })).status,
      ).toBe(404);
      const [own] = await sessionsOf(mine.batch._id);
      expect((await t.api('GET', `/api/class-sessions/${own!._id}/attendance`, { token: manager.token })).status).toBe(
        200,
      );
      const day = await t.api('GET', `/api/class-sessions?day=${dayFromToday(-2)}`, { token: manager.token });
      expect(day.body.data.map((s: { _id: string }) => s._id)).toEqual([own!._id]);
      // The other branch's instructor still reaches their own register, whatever the scope.
      expect(
        (await t.api('GET', `/api/class-sessions/${other!._id}/attendance`, { token: theirs.instructor.token })).status,
      ).toBe(200);
      const theirDay = await t.api('GET', `/api/class-sessions?day=${dayFromToday(-2)}`, {
        token: theirs.instructor.token,
      });
      expect(theirDay.body.data.map((s: { _id: string }) => s._id)).toEqual([other!._id]);
    } finally {
      await t.trpc(superadmin.token).settings.updateAccess.mutate({ managersOwnBranchOnly: false });
    }
  });
});

describe('the audit trail', () => {
  it('records batch creation and changes with who made them', async () => {
    const { batch } = await batchAt();
    const put = await t.api('PUT', `/api/batches/${batch._id}`, {
      token: admin.token,
      body: { capacity: 30, name: 'Renamed' },
    });
    expect(put.status).toBe(200);
    const entries = await t.deps.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.entityId, batch._id))
      .orderBy(asc(auditLog.createdAt));
    expect(entries.map((e) => [e.entityType, e.action, e.actorId])).toEqual([
      ['batch', 'create', admin.id],
      ['batch', 'update', admin.id],
    ]);
    expect(entries[1]!.changes).toEqual(
      expect.arrayContaining([
        { field: 'capacity', before: 20, after: 30 },
        { field: 'name', before: batch.name, after: 'Renamed' },
      ]),
    );
  });
});
