import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appointments } from '../../src/server/db/schema';
import { startTestApp, type TestApp } from '../helpers/app';
import { makeBranch, makeUser } from '../helpers/factories';
import {
  addClosure,
  addTimeOff,
  at,
  makeBooking,
  makePractitioner,
  makeTimedTreatment,
  TZ,
} from '../helpers/appointment-factories';
import { readPdfText } from '../helpers/report-factories';
import ExcelJS from 'exceljs';

/**
 * The appointments report (docs/reports.md#appointments) on a hand-built week, Monday 2 to Sunday
 * 8 March 2026 in Asia/Colombo: utilisation with a closure, time off (one across a break) and
 * appointments of every status, no-show rates, the status counts per day, the files, validation,
 * roles and the branch scope.
 */
let t: TestApp;
let admin: string;
let manager: string;
let branchA: { id: string; name: string };
let branchB: { id: string; name: string };
let ann: { id: string; fullName: string };
let ben: { id: string; fullName: string };
let carol: { id: string; fullName: string };
let dave: { id: string; fullName: string };

const FROM = '2026-03-02';
const TO = '2026-03-08';

beforeAll(async () => {
  t = await startTestApp();
  expect(t.deps.config.TIME_ZONE).toBe(TZ);
  admin = (await t.userWithSession('admin')).token;
  const db = t.deps.db;
  branchA = await makeBranch(db, { name: 'Alpha Clinic' });
  branchB = await makeBranch(db, { name: 'Beta Clinic' });
  manager = (await t.userWithSession('manager', { branchId: branchB.id })).token;
  const treatment = await makeTimedTreatment(db);
  // Ann works at Alpha Monday to Friday, 09:00–13:00 and 14:00–18:00: 480 minutes a day.
  ann = await makePractitioner(db, {
    branchIds: [branchA.id],
    treatmentIds: [treatment.id],
    weekdays: [1, 2, 3, 4, 5],
    fullName: 'Ann Report',
  });
  // Ben works at Beta on Mondays only, 09:00–12:00, but has one appointment at Alpha too.
  ben = await makePractitioner(db, {
    branchIds: [branchB.id],
    treatmentIds: [treatment.id],
    weekdays: [1],
    periods: [['09:00', '12:00']],
    fullName: 'Ben Report',
  });
  await addClosure(db, branchA.id, '2026-03-04');
  await addTimeOff(db, ann.id, at('2026-03-05', '09:00'), at('2026-03-05', '11:00'));
  await addTimeOff(db, ann.id, at('2026-03-06', '12:00'), at('2026-03-06', '15:00'));
  const c1 = await makeUser(db, { role: 'customer', fullName: 'Carol Customer' });
  const c2 = await makeUser(db, { role: 'customer', fullName: 'Dave Customer' });
  carol = { id: c1.id, fullName: 'Carol Customer' };
  dave = { id: c2.id, fullName: 'Dave Customer' };
  const b1 = await makeBooking(t, admin, treatment.id, c1);
  const b2 = await makeBooking(t, admin, treatment.id, c2);
  type Status = (typeof appointments.$inferInsert)['status'];
  const rows: Array<[typeof b1, string, string, string, string, Status]> = [
    // Outside the range: the evening before (Colombo) and the Monday after.
    [b1, ann.id, branchA.id, at('2026-03-01', '23:00'), at('2026-03-01', '23:30'), 'completed'],
    [b1, ann.id, branchA.id, at('2026-03-09', '10:00'), at('2026-03-09', '11:00'), 'completed'],
    // 00:30 in Colombo is still 1 March in UTC: it belongs to 2 March.
    [b1, ann.id, branchA.id, at('2026-03-02', '00:30'), at('2026-03-02', '01:00'), 'completed'],
    [b1, ann.id, branchA.id, at('2026-03-02', '10:00'), at('2026-03-02', '11:00'), 'completed'],
    [b1, ann.id, branchA.id, at('2026-03-02', '11:00'), at('2026-03-02', '11:30'), 'confirmed'],
    [b1, ann.id, branchA.id, at('2026-03-03', '09:00'), at('2026-03-03', '10:00'), 'no_show'],
    [b1, ann.id, branchA.id, at('2026-03-03', '10:00'), at('2026-03-03', '10:45'), 'cancelled'],
    [b1, ann.id, branchA.id, at('2026-03-05', '14:00'), at('2026-03-05', '15:30'), 'arrived'],
    [b1, ann.id, branchA.id, at('2026-03-06', '09:00'), at('2026-03-06', '10:00'), 'scheduled'],
    [b2, ben.id, branchA.id, at('2026-03-03', '12:00'), at('2026-03-03', '12:45'), 'completed'],
    [b2, ben.id, branchB.id, at('2026-03-02', '09:00'), at('2026-03-02', '10:00'), 'no_show'],
  ];
  await db.insert(appointments).values(
    rows.map(([b, practitionerId, branchId, start, end, status]) => ({
      bookingId: b.id,
      customerId: b.customerId,
      treatmentId: treatment.id,
      practitionerId,
      branchId,
      startAt: new Date(start),
      endAt: new Date(end),
      blockedUntil: new Date(end),
      status,
    })),
  );
});
afterAll(() => t.close());

const get = (query: string, token = admin) => t.api('GET', `/api/reports/appointments${query}`, { token });
const person = (p: { id: string; fullName: string }) => ({ _id: p.id, fullName: p.fullName });

// Ann at Alpha: 5 × 480 minutes, less the closed Wednesday (480), Thursday's two hours off (120) and
// Friday's 12:00–15:00 off, of which only 12:00–13:00 and 14:00–15:00 were working time (120).
const ANN_WORKING = 5 * 480 - 480 - 120 - 120;
// Booked: 30 (00:30) + 60 + 30 + 90 + 60; the no-show and the cancelled one free their time.
const ANN_BOOKED = 30 + 60 + 30 + 90 + 60;

describe('figures', () => {
  it('answers utilisation, no-shows and the days of one branch', async () => {
    const res = await get(`?from=${FROM}&to=${TO}&branchId=${branchA.id}`);
    expect(res.status).toBe(200);
    expect(res.body.utilisation).toEqual([
      {
        practitioner: person(ann),
        branch: { _id: branchA.id, name: branchA.name },
        bookedMinutes: ANN_BOOKED,
        workingMinutes: ANN_WORKING,
        rate: Math.round((ANN_BOOKED / ANN_WORKING) * 10_000) / 10_000,
      },
      // Booked at a branch where the plan has no working time: no rate.
      {
        practitioner: person(ben),
        branch: { _id: branchA.id, name: branchA.name },
        bookedMinutes: 45,
        workingMinutes: 0,
        rate: null,
      },
    ]);
    expect(res.body.noShows.byPractitioner).toEqual([
      { practitioner: person(ann), appointments: 4, noShows: 1, rate: 0.25 },
      { practitioner: person(ben), appointments: 1, noShows: 0, rate: 0 },
    ]);
    expect(res.body.noShows.byCustomer).toEqual([
      { customer: person(carol), appointments: 4, noShows: 1, rate: 0.25 },
      { customer: person(dave), appointments: 1, noShows: 0, rate: 0 },
    ]);
    const zero = { scheduled: 0, confirmed: 0, arrived: 0, completed: 0, cancelled: 0, no_show: 0 };
    expect(res.body.byDay).toEqual([
      { ...zero, day: '2026-03-02', completed: 2, confirmed: 1 },
      { ...zero, day: '2026-03-03', completed: 1, no_show: 1, cancelled: 1 },
      { ...zero, day: '2026-03-04' },
      { ...zero, day: '2026-03-05', arrived: 1 },
      { ...zero, day: '2026-03-06', scheduled: 1 },
      { ...zero, day: '2026-03-07' },
      { ...zero, day: '2026-03-08' },
    ]);
    expect(await t.trpc(admin).appointmentReports.get.query({ from: FROM, to: TO, branchId: branchA.id })).toEqual(
      res.body,
    );
  });

  it('covers every branch without a branch, and ranks no-shows by count then rate', async () => {
    const res = await get(`?from=${FROM}&to=${TO}`);
    expect(res.status).toBe(200);
    expect(
      res.body.utilisation.map((u: { branch: { name: string }; practitioner: { fullName: string } }) => [
        u.branch.name,
        u.practitioner.fullName,
      ]),
    ).toEqual([
      [branchA.name, 'Ann Report'],
      [branchA.name, 'Ben Report'],
      [branchB.name, 'Ben Report'],
    ]);
    expect(res.body.utilisation[2]).toMatchObject({ bookedMinutes: 0, workingMinutes: 180, rate: 0 });
    expect(res.body.noShows.byPractitioner).toEqual([
      { practitioner: person(ben), appointments: 2, noShows: 1, rate: 0.5 },
      { practitioner: person(ann), appointments: 4, noShows: 1, rate: 0.25 },
    ]);
    expect(res.body.byDay[0]).toMatchObject({ day: FROM, completed: 2, confirmed: 1, no_show: 1 });
  });

  it('refuses a missing, reversed or too long range and a bad branch', async () => {
    const cases: Array<[string, number, string]> = [
      [`?to=${TO}`, 400, 'From is required.'],
      [`?from=${FROM}&to=2026-02-30`, 400, 'To must be a date (YYYY-MM-DD) between 1900 and 2100.'],
      [`?from=${TO}&to=${FROM}`, 400, 'From cannot be after To.'],
      ['?from=2025-01-01&to=2026-01-03', 400, 'A report covers at most 366 days; narrow From and To.'],
      [`?from=${FROM}&to=${TO}&branchId=x`, 400, 'Branch is not valid.'],
      [`?from=${FROM}&to=${TO}&branchId=00000000-0000-4000-8000-000000000000`, 404, 'Branch not found.'],
    ];
    for (const [query, status, message] of cases) {
      const res = await get(query);
      expect([res.status, res.body.message], query).toEqual([status, message]);
    }
    // 366 days apart is the longest range.
    expect((await get('?from=2025-01-01&to=2026-01-02')).status).toBe(200);
    expect((await get(`/excel?from=${TO}&to=${FROM}`)).status).toBe(400);
  });
});

describe('files', () => {
  it('answers Excel with one sheet per table', async () => {
    const res = await fetch(
      `${t.baseUrl}/api/reports/appointments/excel?from=${FROM}&to=${TO}&branchId=${branchA.id}`,
      {
        headers: { authorization: `Bearer ${admin}` },
      },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(res.headers.get('content-disposition')).toMatch(
      /^attachment; filename="appointment_report_\d{4}-\d{2}-\d{2}\.xlsx"$/,
    );
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(await res.arrayBuffer());
    const rows = (name: string) => {
      const out: unknown[][] = [];
      wb.getWorksheet(name)!.eachRow((r) => out.push((r.values as unknown[]).slice(1)));
      return out;
    };
    expect(wb.worksheets.map((s) => s.name)).toEqual([
      'Utilisation',
      'No-shows by practitioner',
      'No-shows by customer',
      'By status per day',
      'Report info',
    ]);
    expect(rows('Utilisation')).toEqual([
      ['Practitioner', 'Branch', 'Booked minutes', 'Working minutes', 'Utilisation %'],
      ['Ann Report', branchA.name, ANN_BOOKED, ANN_WORKING, 16.1],
      ['Ben Report', branchA.name, 45, 0],
    ]);
    expect(rows('No-shows by customer')[1]).toEqual(['Carol Customer', 4, 1, 25]);
    expect(rows('By status per day')[2]).toEqual(['03 Mar 2026', 0, 0, 0, 1, 1, 1]);
    expect(rows('Report info').map((r) => r.join(': '))).toContain(
      `Filters: From: 02 Mar 2026; To: 08 Mar 2026; Branch: ${branchA.name}`,
    );
  });

  it('answers a PDF with the four tables', async () => {
    const res = await fetch(`${t.baseUrl}/api/reports/appointments/pdf?from=${FROM}&to=${TO}&branchId=${branchA.id}`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    // pdf.js gives each cell as an item of its own: spaces between them are collapsed.
    const text = (await readPdfText(Buffer.from(await res.arrayBuffer()))).join(' ').replace(/\s+/g, ' ');
    for (const s of [
      'Appointments',
      `Branch: ${branchA.name}`,
      'Utilisation',
      `Ann Report ${branchA.name} ${ANN_BOOKED} ${ANN_WORKING} 16.1`,
      'No-shows by practitioner',
      'Carol Customer 4 1 25',
      '05 Mar 2026 0 0 1 0 0 0',
    ]) {
      expect(text).toContain(s);
    }
  });
});

describe('access', () => {
  it('is for staff only, and a limited manager sees only their branch', async () => {
    const student = await t.userWithSession('student');
    const q = `?from=${FROM}&to=${TO}`;
    for (const path of ['', '/excel', '/pdf']) {
      expect((await t.api('GET', `/api/reports/appointments${path}${q}`, { token: student.token })).status).toBe(403);
      expect((await t.api('GET', `/api/reports/appointments${path}${q}`)).status).toBe(401);
    }
    await expect(t.trpc(student.token).appointmentReports.get.query({ from: FROM, to: TO })).rejects.toMatchObject({
      data: { httpStatus: 403 },
    });
    expect((await get(q, manager)).body.utilisation).toHaveLength(3);
    await t.trpc(admin).settings.updateAccess.mutate({ managersOwnBranchOnly: true });
    try {
      // Asking for another branch still answers the manager's own.
      const mine = await get(`${q}&branchId=${branchA.id}`, manager);
      expect(mine.status).toBe(200);
      expect(mine.body.branchId).toBe(branchB.id);
      expect(mine.body.utilisation).toEqual([
        {
          practitioner: person(ben),
          branch: { _id: branchB.id, name: branchB.name },
          bookedMinutes: 0,
          workingMinutes: 180,
          rate: 0,
        },
      ]);
      expect(mine.body.noShows.byCustomer).toEqual([{ customer: person(dave), appointments: 1, noShows: 1, rate: 1 }]);
    } finally {
      await t.trpc(admin).settings.updateAccess.mutate({ managersOwnBranchOnly: false });
    }
  });
});
