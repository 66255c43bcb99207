import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app';
import { colombo, dayFromToday, enrolStudent, postBatch, TZ, weekdayOf } from '../helpers/class-factories';
import { makeBranch, postCourse, type MadeUser } from '../helpers/factories';
import { readPdfText } from '../helpers/report-factories';

/**
 * A batch's register (docs/classes.md#register): students × sessions with one mark per cell and
 * each rate, as JSON, Excel and PDF; staff only, a limited manager only for their branch.
 */
let t: TestApp;
let admin: MadeUser & { token: string };
let batchId: string;
let branchId: string;
const name = `Register batch ${Math.random().toString(36).slice(2, 6)}`;

beforeAll(async () => {
  t = await startTestApp();
  expect(t.deps.config.TIME_ZONE).toBe(TZ);
  admin = await t.userWithSession('admin');
  const courseId = await postCourse(t, admin.token, 'Register course', {
    totalFee: 30000,
    admissionFee: 0,
    installments: 1,
  });
  const branch = await makeBranch(t.deps.db);
  branchId = branch.id;
  const instructor = await t.userWithSession('user', { fullName: 'Rita Instructor' });
  const batch = await postBatch(t, admin.token, {
    name,
    courseId,
    branchId,
    instructorId: instructor.id,
    startDate: dayFromToday(-14),
    endDate: dayFromToday(7),
    timetable: [{ weekday: weekdayOf(dayFromToday(-3)), start: '09:00', end: '10:00' }],
  });
  batchId = batch._id;
  const alice = await enrolStudent(t, admin.token, courseId, { branchId, fullName: 'Alice Register' });
  const bob = await enrolStudent(t, admin.token, courseId, { branchId, fullName: 'Bob Register' });
  for (const e of [alice, bob]) {
    const join = await t.api('PUT', `/api/enrollments/${e.enrollmentId}/batch`, {
      token: admin.token,
      body: { batchId, joinedOn: dayFromToday(-14) },
    });
    expect(join.status).toBe(200);
  }
  const sessions = (await t.api('GET', `/api/batches/${batchId}/sessions`, { token: admin.token })).body.data as Array<{
    _id: string;
  }>;
  expect(sessions).toHaveLength(3);
  const mark = async (id: string, marks: Array<{ enrollmentId: string; status: string }>) =>
    expect(
      (await t.api('PUT', `/api/class-sessions/${id}/attendance`, { token: admin.token, body: { marks } })).status,
    ).toBe(200);
  await mark(sessions[0]!._id, [
    { enrollmentId: alice.enrollmentId, status: 'present' },
    { enrollmentId: bob.enrollmentId, status: 'absent' },
  ]);
  await mark(sessions[1]!._id, [
    { enrollmentId: alice.enrollmentId, status: 'late' },
    { enrollmentId: bob.enrollmentId, status: 'excused' },
  ]);
  const cancel = await t.api('POST', `/api/class-sessions/${sessions[2]!._id}/cancel`, {
    token: admin.token,
    body: { reason: 'Holiday' },
  });
  expect(cancel.status).toBe(200);
});
afterAll(() => t.close());

describe('the register', () => {
  it('answers the sessions in order and each student’s marks beside them, with the rate', async () => {
    const res = await t.api('GET', `/api/batches/${batchId}/register`, { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body.batch).toEqual({ _id: batchId, name });
    expect(res.body.sessions.map((s: { start: string; status: string }) => [s.start, s.status])).toEqual([
      [colombo(dayFromToday(-10), '09:00'), 'scheduled'],
      [colombo(dayFromToday(-3), '09:00'), 'scheduled'],
      [colombo(dayFromToday(4), '09:00'), 'cancelled'],
    ]);
    expect(
      res.body.students.map((s: { student: { fullName: string }; marks: unknown[]; rate: number | null }) => [
        s.student.fullName,
        s.marks,
        s.rate,
      ]),
    ).toEqual([
      ['Alice Register', ['present', 'late', null], 100],
      ['Bob Register', ['absent', 'excused', null], 0],
    ]);
    // A range narrows the columns; tRPC answers the same.
    const some = await t.api('GET', `/api/batches/${batchId}/register?from=${dayFromToday(-5)}&to=${dayFromToday(0)}`, {
      token: admin.token,
    });
    expect(some.body.sessions).toHaveLength(1);
    expect(some.body.students[0].marks).toEqual(['late']);
    const bad = await t.api('GET', `/api/batches/${batchId}/register?from=${dayFromToday(0)}&to=${dayFromToday(-5)}`, {
      token: admin.token,
    });
    expect(bad.status).toBe(400);
  });

  it('downloads as Excel: a Register sheet with letters per mark and the rate, and its info sheet', async () => {
    const res = await fetch(`${t.baseUrl}/api/batches/${batchId}/register/excel`, {
      headers: { authorization: `Bearer ${admin.token}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(
      /^attachment; filename="class_register_\d{4}-\d{2}-\d{2}\.xlsx"$/,
    );
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(await res.arrayBuffer());
    const sheet = wb.getWorksheet('Register')!;
    const row = (n: number) => Array.from({ length: 5 }, (_, i) => sheet.getRow(n).getCell(i + 1).value);
    expect(row(1)[0]).toBe('Student');
    expect(row(1)[4]).toBe('Rate %');
    // Each session's column is named by its start on TIME_ZONE's clock.
    expect(sheet.getRow(1).getCell(2).text).toMatch(/^\d{2} \w{3} \d{4}, 09:00$/);
    expect(row(2)).toEqual(['Alice Register', 'P', 'L', 'X', 100]);
    expect(row(3)).toEqual(['Bob Register', 'A', 'E', 'X', 0]);
    const info: string[] = [];
    wb.getWorksheet('Report info')!.eachRow((r) => info.push(`${r.getCell(1).text}: ${r.getCell(2).text}`));
    expect(info).toContain(`Report: Register: ${name}`);
  });

  it('downloads as PDF with the same grid', async () => {
    const res = await fetch(`${t.baseUrl}/api/batches/${batchId}/register/pdf`, {
      headers: { authorization: `Bearer ${admin.token}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    const text = (await readPdfText(Buffer.from(await res.arrayBuffer()))).join(' ').replace(/\s+/g, ' ');
    expect(text).toContain(`Register: ${name}`);
    expect(text).toContain('Alice Register P L X 100.0');
    expect(text).toContain('Bob Register A E X 0.0');
  });

  it('is for staff: a student gets 403, a manager limited to another branch 404', async () => {
    const student = await t.userWithSession('student');
    expect((await t.api('GET', `/api/batches/${batchId}/register`, { token: student.token })).status).toBe(403);
    const elsewhere = await makeBranch(t.deps.db);
    const manager = await t.userWithSession('manager', { branchId: elsewhere.id });
    const superadmin = await t.userWithSession('superadmin');
    await t.trpc(superadmin.token).settings.updateAccess.mutate({ managersOwnBranchOnly: true });
    try {
      for (const path of ['', '/excel', '/pdf'])
        expect((await t.api('GET', `/api/batches/${batchId}/register${path}`, { token: manager.token })).status).toBe(
          404,
        );
    } finally {
      await t.trpc(superadmin.token).settings.updateAccess.mutate({ managersOwnBranchOnly: false });
    }
    const own = await t.userWithSession('manager', { branchId });
    expect((await t.api('GET', `/api/batches/${batchId}/register`, { token: own.token })).status).toBe(200);
  });
});
