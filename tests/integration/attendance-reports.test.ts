import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDay } from '../../src/shared/format';
import { startTestApp, type TestApp } from '../helpers/app';
import { dayFromToday, enrolStudent, postBatch, TZ } from '../helpers/class-factories';
import { makeBranch, postCourse, type MadeUser } from '../helpers/factories';
import { readPdfText } from '../helpers/report-factories';

/**
 * The attendance report (docs/reports.md#attendance) on two batches whose sessions are all in the
 * past days of the range (days in Asia/Colombo): sessions held against cancelled ones, the marks
 * and rates with late, excused, unmarked and a late joiner, the students under the threshold, the
 * pages of the student lists, the files, validation, roles and the branch scope.
 */
let t: TestApp;
let admin: MadeUser & { token: string };
let branchA: { id: string; name: string };
let branchB: { id: string; name: string };
let alpha: { _id: string; name: string };
let beta: { _id: string; name: string };
const people: Record<string, { enrollmentId: string; student: MadeUser & { token: string } }> = {};

const FROM = dayFromToday(-10);
const TO = dayFromToday(-1);
const EVERY_DAY = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((weekday) => ({
  weekday,
  start: '08:00',
  end: '09:00',
}));

type Session = { _id: string; start: string; status: string };
const ok = <T>(res: { status: number; body: T }, status = 200) => {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res.body;
};

beforeAll(async () => {
  t = await startTestApp();
  expect(t.deps.config.TIME_ZONE).toBe(TZ);
  expect(t.deps.config.ATTENDANCE_THRESHOLD).toBe(75);
  admin = await t.userWithSession('admin');
  const courseId = await postCourse(t, admin.token, 'Attendance report', {
    totalFee: 1000,
    admissionFee: 0,
    installments: 1,
  });
  branchA = await makeBranch(t.deps.db, { name: 'Attendance Alpha Campus' });
  branchB = await makeBranch(t.deps.db, { name: 'Attendance Beta Campus' });
  const teacher = await t.userWithSession('user');
  // Alpha: every day from ten days ago to three days ahead, 08:00–09:00; the first two cancelled.
  alpha = await postBatch(t, admin.token, {
    name: 'Alpha evening',
    courseId,
    branchId: branchA.id,
    instructorId: teacher.id,
    startDate: dayFromToday(-10),
    endDate: dayFromToday(3),
    timetable: EVERY_DAY,
  });
  const sessions = ok(await t.api<{ data: Session[] }>('GET', `/api/batches/${alpha._id}/sessions`, admin)).data;
  expect(sessions).toHaveLength(14);
  for (const s of sessions.slice(0, 2))
    ok(await t.api('POST', `/api/class-sessions/${s._id}/cancel`, { token: admin.token, body: { reason: 'Rain' } }));
  const held = sessions.slice(2, 10); // days -8 to -1

  for (const [name, joinedOn] of [
    ['Steady', dayFromToday(-10)],
    ['Late Joiner', dayFromToday(-4)],
    ['Silent', dayFromToday(-10)],
    ['Fading', dayFromToday(-10)],
  ] as const) {
    people[name] = await enrolStudent(t, admin.token, courseId, { branchId: branchA.id, fullName: name });
    ok(
      await t.api('PUT', `/api/enrollments/${people[name].enrollmentId}/batch`, {
        token: admin.token,
        body: { batchId: alpha._id, joinedOn },
      }),
    );
  }
  // Steady: 5 present, 1 late, 1 absent, 1 excused → 6 of 7 = 85.7.
  // Late Joiner (the last four): present, absent, excused, unmarked → 1 of 2 = 50.0.
  // Fading: 5 present, 3 absent → 62.5. Silent: nothing marked → no rate.
  const plan: Record<string, Array<string | null>> = {
    Steady: ['present', 'late', 'present', 'absent', 'present', 'present', 'present', 'excused'],
    'Late Joiner': [null, null, null, null, 'present', 'absent', 'excused', null],
    Fading: ['present', 'absent', 'present', 'absent', 'present', 'absent', 'present', 'present'],
  };
  for (let i = 0; i < held.length; i++) {
    const marks = Object.entries(plan)
      .filter(([, p]) => p[i])
      .map(([name, p]) => ({ enrollmentId: people[name]!.enrollmentId, status: p[i] }));
    ok(await t.api('PUT', `/api/class-sessions/${held[i]!._id}/attendance`, { token: admin.token, body: { marks } }));
  }

  // Beta: three days at the other branch, one student always present.
  beta = await postBatch(t, admin.token, {
    name: 'Beta morning',
    courseId,
    branchId: branchB.id,
    instructorId: (await t.userWithSession('user')).id,
    startDate: dayFromToday(-3),
    endDate: dayFromToday(-1),
    timetable: EVERY_DAY.map((s) => ({ ...s, start: '10:00', end: '11:00' })),
  });
  people.Bea = await enrolStudent(t, admin.token, courseId, { branchId: branchB.id, fullName: 'Bea' });
  ok(
    await t.api('PUT', `/api/enrollments/${people.Bea.enrollmentId}/batch`, {
      token: admin.token,
      body: { batchId: beta._id, joinedOn: dayFromToday(-3) },
    }),
  );
  for (const s of ok(await t.api<{ data: Session[] }>('GET', `/api/batches/${beta._id}/sessions`, admin)).data)
    ok(
      await t.api('PUT', `/api/class-sessions/${s._id}/attendance`, { token: admin.token, body: { allPresent: true } }),
    );
});
afterAll(() => t.close());

const get = (query: string, token = admin.token) => t.api('GET', `/api/reports/attendance${query}`, { token });
const names = (rows: Array<{ student: { fullName: string } }>) => rows.map((r) => r.student.fullName);
const student = (name: string) => ({ _id: people[name]!.student.id, fullName: name });

describe('figures', () => {
  it('counts held and cancelled sessions per batch, and the marks at the held ones', async () => {
    const body = ok(await get(`?from=${FROM}&to=${TO}&branchId=${branchA.id}`));
    expect(body).toMatchObject({ from: FROM, to: TO, branchId: branchA.id, batchId: null, threshold: 75 });
    // 17 counted: 11 present + 1 late of 17 → 70.6; unmarked: Silent's 8 and the late joiner's 1.
    expect(body.byBatch).toEqual([
      {
        batch: { _id: alpha._id, name: alpha.name, status: 'open' },
        branch: { _id: branchA.id, name: branchA.name },
        sessions: 10,
        held: 8,
        cancelled: 2,
        upcoming: 0,
        present: 11,
        late: 1,
        absent: 5,
        excused: 2,
        unmarked: 9,
        rate: 70.6,
      },
    ]);
  });

  it('answers each student with the rate over the range since joining, and those under the threshold', async () => {
    const body = ok(await get(`?from=${FROM}&to=${TO}&branchId=${branchA.id}`));
    const batch = { _id: alpha._id, name: alpha.name };
    expect(body.byStudent).toEqual({
      data: [
        {
          enrollmentId: people.Fading!.enrollmentId,
          batch,
          student: student('Fading'),
          held: 8,
          present: 5,
          late: 0,
          absent: 3,
          excused: 0,
          unmarked: 0,
          rate: 62.5,
        },
        {
          enrollmentId: people['Late Joiner']!.enrollmentId,
          batch,
          student: student('Late Joiner'),
          held: 4,
          present: 1,
          late: 0,
          absent: 1,
          excused: 1,
          unmarked: 1,
          rate: 50,
        },
        expect.objectContaining({ student: student('Silent'), held: 8, unmarked: 8, rate: null }),
        expect.objectContaining({ student: student('Steady'), held: 8, present: 5, late: 1, excused: 1, rate: 85.7 }),
      ],
      nextCursor: null,
    });
    // The same threshold and rule as the falling-behind list; no rate is not under it.
    expect(names(body.underThreshold.data)).toEqual(['Fading', 'Late Joiner']);
    expect(body.underThreshold.nextCursor).toBeNull();
  });

  it('narrows to a range and a batch, and counts the sessions still to come', async () => {
    // The last four days: Steady was present, present, present and excused.
    const last = ok(await get(`?from=${dayFromToday(-4)}&to=${TO}&batchId=${alpha._id}`));
    expect(last.byBatch).toEqual([expect.objectContaining({ sessions: 4, held: 4, cancelled: 0 })]);
    const steady = last.byStudent.data.find((r: { student: { fullName: string } }) => r.student.fullName === 'Steady');
    expect(steady).toMatchObject({ held: 4, present: 3, excused: 1, rate: 100 });
    // Fading's last four are 3 of 4 = 75.0: at the threshold is not under it.
    expect(
      last.byStudent.data.find((r: { student: { fullName: string } }) => r.student.fullName === 'Fading').rate,
    ).toBe(75);
    expect(names(last.underThreshold.data)).toEqual(['Late Joiner']);
    // Days still to come: scheduled, none held, so no rate for anyone.
    const ahead = ok(await get(`?from=${dayFromToday(1)}&to=${dayFromToday(3)}&batchId=${alpha._id}`));
    expect(ahead.byBatch).toEqual([
      expect.objectContaining({ sessions: 3, held: 0, cancelled: 0, upcoming: 3, unmarked: 0, rate: null }),
    ]);
    expect(ahead.byStudent.data.map((r: { held: number; rate: number | null }) => [r.held, r.rate])).toEqual(
      Array(4).fill([0, null]),
    );
    expect(ahead.underThreshold.data).toEqual([]);
    // Without a branch every branch is covered; a batch outside the range is not listed.
    const all = ok(await get(`?from=${FROM}&to=${TO}`));
    const ids = all.byBatch.map((b: { batch: { _id: string } }) => b.batch._id);
    expect(ids).toEqual(expect.arrayContaining([alpha._id, beta._id]));
    expect(all.byBatch.find((b: { batch: { _id: string } }) => b.batch._id === beta._id)).toMatchObject({
      held: 3,
      present: 3,
      rate: 100,
    });
    const before = ok(await get(`?from=${dayFromToday(-30)}&to=${dayFromToday(-20)}&branchId=${branchA.id}`));
    expect([before.byBatch, before.byStudent.data]).toEqual([[], []]);
  });

  it('pages the student lists by cursor', async () => {
    const q = `from=${FROM}&to=${TO}&branchId=${branchA.id}`;
    const first = ok(await t.api('GET', `/api/reports/attendance/students?${q}&list=byStudent&limit=3`, admin));
    expect(names(first.data)).toEqual(['Fading', 'Late Joiner', 'Silent']);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = ok(
      await t.api(
        'GET',
        `/api/reports/attendance/students?${q}&list=byStudent&limit=3&cursor=${encodeURIComponent(first.nextCursor)}`,
        admin,
      ),
    );
    expect([names(second.data), second.nextCursor]).toEqual([['Steady'], null]);
    // The students under the threshold, one at a time, over tRPC.
    const trpc = t.trpc(admin.token).attendanceReports.students;
    const u1 = await trpc.query({ from: FROM, to: TO, branchId: branchA.id, list: 'underThreshold', limit: 1 });
    expect(names(u1.data)).toEqual(['Fading']);
    const u2 = await trpc.query({
      from: FROM,
      to: TO,
      branchId: branchA.id,
      list: 'underThreshold',
      limit: 1,
      cursor: u1.nextCursor!,
    });
    expect([names(u2.data), u2.nextCursor]).toEqual([['Late Joiner'], null]);
  });

  it('refuses a bad range, filter or cursor with 400 and a missing batch with 404', async () => {
    const cases: Array<[string, number, string]> = [
      [`?to=${TO}`, 400, 'From is required.'],
      [`?from=${TO}&to=${FROM}`, 400, 'From cannot be after To.'],
      [`?from=2025-01-01&to=2026-01-03`, 400, 'A report covers at most 366 days; narrow From and To.'],
      [`?from=${FROM}&to=${TO}&batchId=nope`, 400, 'Batch is not valid.'],
      [`?from=${FROM}&to=${TO}&batchId=${crypto.randomUUID()}`, 404, 'Batch not found.'],
      [`?from=${FROM}&to=${TO}&branchId=${crypto.randomUUID()}`, 404, 'Branch not found.'],
    ];
    for (const [q, status, message] of cases) {
      const res = await get(q);
      expect([res.status, res.body.message], q).toEqual([status, message]);
    }
    const cursor = await t.api(
      'GET',
      `/api/reports/attendance/students?from=${FROM}&to=${TO}&list=byStudent&cursor=garbage`,
      admin,
    );
    expect([cursor.status, cursor.body.message]).toEqual([
      400,
      'The cursor is not valid: send back a nextCursor of the same report.',
    ]);
    const list = await t.api('GET', `/api/reports/attendance/students?from=${FROM}&to=${TO}&list=all`, admin);
    expect(list.status).toBe(400);
  });
});

describe('files', () => {
  const file = (format: 'excel' | 'pdf', token = admin.token) =>
    fetch(`${t.baseUrl}/api/reports/attendance/${format}?from=${FROM}&to=${TO}&branchId=${branchA.id}`, {
      headers: { authorization: `Bearer ${token}` },
    });

  it('answers Excel with a sheet per table', async () => {
    const res = await file('excel');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(res.headers.get('content-disposition')).toMatch(
      /^attachment; filename="attendance_report_\d{4}-\d{2}-\d{2}\.xlsx"$/,
    );
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(await res.arrayBuffer());
    const rows = (name: string) => {
      const out: unknown[][] = [];
      wb.getWorksheet(name)!.eachRow((r) => out.push((r.values as unknown[]).slice(1)));
      return out;
    };
    expect(wb.worksheets.map((s) => s.name)).toEqual(['By batch', 'By student', 'Under 75 %', 'Report info']);
    expect(rows('By batch')).toEqual([
      [
        'Batch',
        'Branch',
        'Status',
        'Sessions',
        'Held',
        'Cancelled',
        'To come',
        'Present',
        'Late',
        'Absent',
        'Excused',
        'Unmarked',
        'Rate %',
      ],
      [alpha.name, branchA.name, 'Open', 10, 8, 2, 0, 11, 1, 5, 2, 9, 70.6],
    ]);
    expect(rows('By student').slice(1)).toEqual([
      [alpha.name, 'Fading', 8, 5, 0, 3, 0, 0, 62.5],
      [alpha.name, 'Late Joiner', 4, 1, 0, 1, 1, 1, 50],
      // The empty rate cell is left out of the row's values.
      [alpha.name, 'Silent', 8, 0, 0, 0, 0, 8],
      [alpha.name, 'Steady', 8, 5, 1, 1, 1, 0, 85.7],
    ]);
    expect(
      rows('Under 75 %')
        .slice(1)
        .map((r) => r[1]),
    ).toEqual(['Fading', 'Late Joiner']);
    expect(rows('Report info').map((r) => r.join(': '))).toContain(
      `Filters: From: ${formatDay(FROM)}; To: ${formatDay(TO)}; Branch: ${branchA.name}`,
    );
  });

  it('answers a PDF with the three tables', async () => {
    const res = await file('pdf');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const text = (await readPdfText(bytes)).join(' ').replace(/\s+/g, ' ');
    for (const s of [
      'Attendance',
      `Branch: ${branchA.name}`,
      'By batch',
      `${alpha.name} ${branchA.name} Open 10 8 2 0 11 1 5 2 9 70.6`,
      'By student',
      `${alpha.name} Late Joiner 4 1 0 1 1 1 50.0`,
      'Under 75 %',
    ]) {
      expect(text).toContain(s);
    }
  });
});

describe('access', () => {
  it('is for staff only, and a limited manager sees only their branch', async () => {
    const outsider = await t.userWithSession('student');
    const q = `?from=${FROM}&to=${TO}`;
    for (const path of ['', '/excel', '/pdf', '/students']) {
      const tail = path === '/students' ? `${q}&list=byStudent` : q;
      expect((await t.api('GET', `/api/reports/attendance${path}${tail}`, outsider)).status).toBe(403);
      expect((await t.api('GET', `/api/reports/attendance${path}${tail}`)).status).toBe(401);
    }
    await expect(t.trpc(outsider.token).attendanceReports.get.query({ from: FROM, to: TO })).rejects.toMatchObject({
      data: { httpStatus: 403 },
    });
    const manager = await t.userWithSession('manager', { branchId: branchB.id });
    await t.trpc(admin.token).settings.updateAccess.mutate({ managersOwnBranchOnly: true });
    try {
      // Asking for another branch still answers the manager's own; another branch's batch is not found.
      const mine = ok(await get(`${q}&branchId=${branchA.id}`, manager.token));
      expect(mine.branchId).toBe(branchB.id);
      expect(mine.byBatch.map((b: { batch: { _id: string } }) => b.batch._id)).toEqual([beta._id]);
      expect(names(mine.byStudent.data)).toEqual(['Bea']);
      expect((await get(`${q}&batchId=${alpha._id}`, manager.token)).status).toBe(404);
    } finally {
      await t.trpc(admin.token).settings.updateAccess.mutate({ managersOwnBranchOnly: false });
    }
  });
});
