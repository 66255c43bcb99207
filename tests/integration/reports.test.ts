import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { treatmentBookings, users } from '../../src/server/db/schema';
import type { ReportRow } from '../../src/server/domains/reports/report-source';
import type { TCourseStatistics, TTreatmentStatistics } from '../../src/shared/schemas/reports.output';
import { startTestApp, type TestApp } from '../helpers/app';
import { makeBranch, makeUser } from '../helpers/factories';
import {
  daysAgo,
  download,
  makeBooking,
  makeCourse,
  makeEnrollment,
  makeTreatment,
  readPdfText,
  readXlsx,
} from '../helpers/report-factories';

/** A report's `format=json` answer (docs/reports.md). */
interface JsonReport {
  data: ReportRow[];
  total: number;
  columns: Array<{ key: string; header: string; type: string }>;
  totals?: ReportRow[];
}

/*
 * A known data set; every expected number below is worked out by hand from it.
 * Users: 3 with sessions (admin, manager, customer; no branch) + 5 made here = 8.
 */
let t: TestApp;
let admin: { token: string };
let manager: { token: string };
let customer: { token: string };
let branchA: { id: string; name: string; location: string };
let branchB: { id: string; name: string; location: string };

beforeAll(async () => {
  t = await startTestApp();
  const db = t.deps.db;
  admin = await t.userWithSession('admin');
  manager = await t.userWithSession('manager');
  customer = await t.userWithSession('customer');
  branchA = await makeBranch(db, { name: 'Colombo', location: 'Galle Road' });
  branchB = await makeBranch(db, { name: 'Kandy', location: 'Peradeniya Road' });
  const u1 = await makeUser(db, {
    role: 'student',
    branchId: branchA.id,
    username: 'nimal',
    email: 'nimal@example.com',
  });
  const u2 = await makeUser(db, {
    role: 'student',
    branchId: branchA.id,
    username: 'kamala',
    email: 'kamala@example.com',
  });
  const u3 = await makeUser(db, {
    role: 'customer',
    branchId: branchB.id,
    username: 'sunil',
    email: 'sunil@example.com',
  });
  const u4 = await makeUser(db, { role: 'user', branchId: branchB.id, username: 'anne', email: 'anne@example.com' });
  await makeUser(db, { role: 'manager', branchId: branchA.id });
  await db
    .update(users)
    .set({ createdAt: daysAgo(40) })
    .where(eq(users.id, u4.id));

  const yoga = await makeCourse(db, {
    courseName: 'Yoga Basics',
    category: 'Wellness',
    totalFee: 10000,
    admissionFee: 1000,
    installments: 3,
  });
  const ayur = await makeCourse(db, {
    courseName: 'Ayurveda Diploma',
    category: 'Medicine',
    totalFee: 50000.5,
    admissionFee: 2500,
    installments: 2,
  });
  await makeCourse(db, {
    courseName: 'Massage Therapy',
    category: 'Wellness',
    totalFee: 25000,
    admissionFee: 0,
    createdAt: daysAgo(60),
  });

  await makeEnrollment(db, {
    userId: u1.id,
    course: yoga,
    enrolledOn: '2025-01-10',
    admissionFeePaid: true,
    installments: [
      [3333.33, true],
      [3333.33, false],
      [3333.34, false],
    ],
    createdAt: daysAgo(3),
  });
  await makeEnrollment(db, {
    userId: u2.id,
    course: yoga,
    enrolledOn: '2025-02-15',
    installments: [[10000, false]],
    createdAt: daysAgo(2),
  });
  await makeEnrollment(db, {
    userId: u1.id,
    course: ayur,
    enrolledOn: '2025-03-01',
    admissionFeePaid: true,
    status: 'completed',
    installments: [[50000.5, true]],
    createdAt: daysAgo(1),
  });

  const pancha = await makeTreatment(db, {
    treatmentName: 'Panchakarma',
    category: 'Detox',
    localPrice: 15000,
    foreignPrice: 60,
    installments: 3,
    durationWeeks: 2,
  });
  const shiro = await makeTreatment(db, {
    treatmentName: 'Shirodhara',
    category: 'Relaxation',
    localPrice: 8000.5,
    foreignPrice: 30.25,
  });
  await makeTreatment(db, {
    treatmentName: 'Abhyanga',
    category: 'Relaxation',
    localPrice: 5000,
    foreignPrice: 20,
    createdAt: daysAgo(45),
  });

  await makeBooking(db, {
    userId: u3.id,
    treatment: pancha,
    userType: 'local',
    bookedOn: '2025-01-05',
    installments: [
      [5000, true],
      [5000, false],
      [5000, false],
    ],
    createdAt: daysAgo(4),
  });
  await makeBooking(db, {
    userId: u4.id,
    treatment: pancha,
    userType: 'foreign',
    bookedOn: '2025-02-10',
    installments: [[60, true]],
    createdAt: daysAgo(3),
  });
  await makeBooking(db, {
    userId: u3.id,
    treatment: shiro,
    userType: 'local',
    bookedOn: '2025-03-03',
    installments: [[8000.5, false]],
    createdAt: daysAgo(2),
  });
  await makeBooking(db, {
    userId: u4.id,
    treatment: shiro,
    userType: 'foreign',
    bookedOn: '2025-03-04',
    installments: [[30.25, false]],
    status: 'cancelled',
    createdAt: daysAgo(1),
  });
});
afterAll(() => t.close());

const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Colombo' }).format(new Date());

describe('statistics', () => {
  it('counts users, new users, roles and branches', async () => {
    const res = await t.api('GET', '/api/reports/users/stats', { token: manager.token });
    expect(res.status).toBe(200);
    const d = res.body.data;
    expect(d.totalUsers).toBe(8);
    expect(d.recentUsers).toBe(7);
    const roles = Object.fromEntries(d.roleCounts.map((r: { _id: string; count: number }) => [r._id, r.count]));
    expect(roles).toEqual({ admin: 1, manager: 2, customer: 2, student: 2, user: 1 });
    expect(d.branchCounts).toEqual([
      { branch: { _id: branchA.id, name: 'Colombo', location: 'Galle Road' }, count: 3 },
      { branch: { _id: branchB.id, name: 'Kandy', location: 'Peradeniya Road' }, count: 2 },
    ]);
    // The same numbers over tRPC.
    expect((await t.trpc(admin.token).reports.userStats.query()).data.totalUsers).toBe(8);
  });

  it('counts courses by category with fee statistics and the most popular courses', async () => {
    const res = await t.api<TCourseStatistics>('GET', '/api/course-reports/stats', { token: admin.token });
    expect(res.status).toBe(200);
    const d = res.body.data;
    expect(d.totalCourses).toBe(3);
    expect(d.recentCourses).toBe(2);
    expect(d.categoryCounts).toEqual([
      { _id: 'Wellness', count: 2 },
      { _id: 'Medicine', count: 1 },
    ]);
    // (10000 + 50000.50 + 25000) / 3 = 28333.50
    expect(d.feeStats).toEqual({ avgFee: 28333.5, minFee: 10000, maxFee: 50000.5 });
    expect(d.popularCourses.map((p) => [p.course.courseName, p.enrollmentCount])).toEqual([
      ['Yoga Basics', 2],
      ['Ayurveda Diploma', 1],
    ]);
    expect(d.popularCourses[0]?.course).toMatchObject({ category: 'Wellness', totalFee: 10000, admissionFee: 1000 });
  });

  it('counts treatments with local and foreign price statistics; cancelled bookings do not count as popular', async () => {
    const res = await t.api<TTreatmentStatistics>('GET', '/api/treatment-reports/stats', { token: admin.token });
    expect(res.status).toBe(200);
    const d = res.body.data;
    expect(d.totalTreatments).toBe(3);
    expect(d.recentTreatments).toBe(2);
    expect(d.categoryCounts).toEqual([
      { _id: 'Relaxation', count: 2 },
      { _id: 'Detox', count: 1 },
    ]);
    // (15000 + 8000.50 + 5000) / 3 = 9333.50; (60 + 30.25 + 20) / 3 = 36.75
    expect(d.localPriceStats).toEqual({ avgLocalPrice: 9333.5, minLocalPrice: 5000, maxLocalPrice: 15000 });
    expect(d.foreignPriceStats).toEqual({ avgForeignPrice: 36.75, minForeignPrice: 20, maxForeignPrice: 60 });
    expect(d.popularTreatments.map((p) => [p.treatment.treatmentName, p.bookingCount])).toEqual([
      ['Panchakarma', 2],
      ['Shirodhara', 1],
    ]);
  });
});

describe('course reports', () => {
  it('answers the course list as JSON, narrowed by category, fee and creation date', async () => {
    const all = await t.api('GET', '/api/course-reports/excel?format=json', { token: admin.token });
    expect(all.status).toBe(200);
    expect(all.body.total).toBe(3);
    const names = (r: { body: JsonReport }) => r.body.data.map((c) => c.courseName).sort();
    const wellness = await t.api('GET', '/api/course-reports/excel?format=json&category=wellness', {
      token: admin.token,
    });
    expect(names(wellness)).toEqual(['Massage Therapy', 'Yoga Basics']);
    const pricey = await t.api('GET', '/api/course-reports/excel?format=json&minFee=20000', { token: admin.token });
    expect(names(pricey)).toEqual(['Ayurveda Diploma', 'Massage Therapy']);
    const cheap = await t.api('GET', '/api/course-reports/excel?format=json&maxFee=20000&minFee=', {
      token: admin.token,
    });
    expect(names(cheap)).toEqual(['Yoga Basics']);
    const recent = await t.api('GET', `/api/course-reports/excel?format=json&startDate=${today()}`, {
      token: admin.token,
    });
    expect(names(recent)).toEqual(['Ayurveda Diploma', 'Yoga Basics']);
  });

  it('counts the rows a report would have with the filters (tRPC), refusing bad ones', async () => {
    const api = t.trpc(manager.token).reports;
    expect(await api.count.query({ report: 'courses', filters: { category: 'Wellness' } })).toEqual({ rows: 2 });
    expect(await api.count.query({ report: 'enrollments', filters: { minFee: '20000' } })).toEqual({ rows: 1 });
    expect(await api.count.query({ report: 'bookings', filters: { startDate: '2025-03-01' } })).toEqual({ rows: 2 });
    await expect(
      api.count.query({ report: 'treatments', filters: { minFee: '9', maxFee: '1' } }),
    ).rejects.toMatchObject({
      message: 'Min Price cannot be greater than Max Price.',
    });
  });

  it('refuses bad filters with 400 and a clear message', async () => {
    const cases: Array<[string, string]> = [
      ['minFee=abc', 'Min Fee must be a number.'],
      ['minFee=-5', 'Min Fee must be 0 or more, with at most two decimals.'],
      ['minFee=500&maxFee=100', 'Min Fee cannot be greater than Max Fee.'],
      ['startDate=2025-13-01', 'Start Date must be a date (YYYY-MM-DD).'],
      ['startDate=2025-03-01&endDate=2025-02-01', 'Start Date cannot be after End Date.'],
      ['format=docx', 'format must be one of json, xlsx, pdf.'],
    ];
    for (const [qs, message] of cases) {
      const res = await t.api('GET', `/api/course-reports/excel?${qs}`, { token: admin.token });
      expect(res.status, qs).toBe(400);
      expect(res.body.message, qs).toBe(message);
    }
    const price = await t.api('GET', '/api/treatment-reports/bookings?maxPrice=x', { token: admin.token });
    expect(price.status).toBe(400);
    expect(price.body.message).toBe('Max Price must be a number.');
  });

  it('downloads the course list as an Excel file with a styled, frozen header, money formats and totals', async () => {
    const res = await download(t.baseUrl, 'GET', '/api/course-reports/excel', { token: manager.token });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="course_report_${today()}.xlsx"`);
    const { sheet, rows } = await readXlsx(res.bytes);
    expect(rows[0]).toEqual([
      'Course Name',
      'Category',
      'Duration',
      'Total Fee (Rs.)',
      'Admission Fee (Rs.)',
      'Installments',
      'Created At',
    ]);
    expect(rows).toHaveLength(5);
    expect(rows.slice(1, 4).map((r) => r[0])).toEqual(['Massage Therapy', 'Yoga Basics', 'Ayurveda Diploma']);
    expect(rows[4]!.slice(0, 5)).toEqual(['Total', null, null, 85000.5, 3500].map((v) => v ?? undefined));
    expect(sheet.getRow(1).getCell(1).font?.bold).toBe(true);
    expect((sheet.getRow(1).getCell(1).fill as { fgColor?: { argb?: string } }).fgColor?.argb).toBe('FF1F4E79');
    expect(sheet.getRow(2).getCell(4).numFmt).toBe('#,##0.00');
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(sheet.getColumn(1).width).toBe(30);
  });

  it('downloads the course list as a PDF with title, filters, generation time, rows and page numbers', async () => {
    const res = await download(t.baseUrl, 'GET', '/api/course-reports/pdf?category=Wellness', { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="course_report_${today()}.pdf"`);
    const [page] = await readPdfText(res.bytes);
    expect(page).toContain('Course List');
    expect(page).toContain('Filters: Category: Wellness');
    expect(page).toMatch(/Generated: \d{2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}/);
    expect(page).toContain('Massage Therapy');
    expect(page).toContain('Yoga Basics');
    expect(page).not.toContain('Ayurveda Diploma');
    expect(page).toContain('35,000.00');
    expect(page).toContain('Page 1 of 1');
    // The page is stored deflated: its text is readable above, not in the file's raw bytes.
    const raw = res.bytes.toString('latin1');
    expect(raw).toContain('/Filter /FlateDecode');
    expect(raw).not.toContain('Massage Therapy');
  });

  it('reports enrolments with paid and outstanding amounts and the display status', async () => {
    const res = await t.api('GET', '/api/course-reports/enrollments?format=json', { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      expect.objectContaining({
        student: 'nimal',
        course: 'Yoga Basics',
        paid: 4333.33,
        outstanding: 6666.67,
        status: 'Active (Partial)',
      }),
      expect.objectContaining({
        student: 'kamala',
        course: 'Yoga Basics',
        paid: 0,
        outstanding: 11000,
        status: 'Pending Payment',
      }),
      expect.objectContaining({
        student: 'nimal',
        course: 'Ayurveda Diploma',
        paid: 52500.5,
        outstanding: 0,
        status: 'Completed',
      }),
    ]);
    expect(res.body.totals[0]).toMatchObject({
      student: 'Total',
      totalFee: 70000.5,
      admissionFee: 4500,
      paid: 56833.83,
      outstanding: 17666.67,
    });

    const filtered = await t.api(
      'GET',
      '/api/course-reports/enrollments?format=json&startDate=2025-02-01&endDate=2025-02-28',
      { token: admin.token },
    );
    expect(filtered.body.data.map((r: ReportRow) => r.student)).toEqual(['kamala']);

    const file = await download(t.baseUrl, 'GET', '/api/course-reports/enrollments?category=Wellness', {
      token: admin.token,
    });
    expect(file.headers.get('content-disposition')).toBe(`attachment; filename="enrollment_report_${today()}.xlsx"`);
    const { rows } = await readXlsx(file.bytes);
    expect(rows[0]).toContain('Outstanding (Rs.)');
    expect(rows).toHaveLength(4);
    const last = rows[3]!;
    expect(last[0]).toBe('Total');
    expect(last[8]).toBe(4333.33);
    expect(last[9]).toBe(17666.67);
  });

  it('reports revenue per course, collected and outstanding, with totals', async () => {
    const res = await t.api('GET', '/api/course-reports/revenue?format=json', { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      {
        name: 'Ayurveda Diploma',
        category: 'Medicine',
        currency: 'LKR',
        count: 1,
        expected: 52500.5,
        collected: 52500.5,
        refunded: 0,
        net: 52500.5,
        outstanding: 0,
      },
      {
        name: 'Yoga Basics',
        category: 'Wellness',
        currency: 'LKR',
        count: 2,
        expected: 22000,
        collected: 4333.33,
        refunded: 0,
        net: 4333.33,
        outstanding: 17666.67,
      },
    ]);
    expect(res.body.totals.byCurrency).toEqual([
      {
        currency: 'LKR',
        count: 3,
        expected: 74500.5,
        collected: 56833.83,
        refunded: 0,
        net: 56833.83,
        outstanding: 17666.67,
      },
    ]);
    expect(res.body.totals.local).toMatchObject({ currency: 'LKR', collected: 56833.83, outstanding: 17666.67 });

    const pdf = await download(t.baseUrl, 'GET', '/api/course-reports/revenue?format=pdf', { token: admin.token });
    expect(pdf.headers.get('content-disposition')).toBe(`attachment; filename="revenue_report_${today()}.pdf"`);
    const text = (await readPdfText(pdf.bytes)).join(' ');
    expect(text).toContain('Course Revenue Report');
    expect(text).toContain('Total (LKR)');
    expect(text).toContain('56,833.83');
  });

  it('builds a custom report from allowed columns only, with the default columns when none are chosen', async () => {
    const def = await t.api('POST', '/api/course-reports/custom?format=json', { token: admin.token, body: {} });
    expect(def.status).toBe(200);
    expect(def.body.columns.map((c: { key: string }) => c.key)).toEqual(['courseName', 'category', 'totalFee']);
    expect(Object.keys(def.body.data[0])).toEqual(['courseName', 'category', 'totalFee']);

    const chosen = await download(t.baseUrl, 'POST', '/api/course-reports/custom?maxFee=20000', {
      token: admin.token,
      body: { fields: ['courseName', 'installments', 'admissionFee'] },
    });
    expect(chosen.status).toBe(200);
    expect(chosen.headers.get('content-disposition')).toBe(`attachment; filename="custom_report_${today()}.xlsx"`);
    const { rows } = await readXlsx(chosen.bytes);
    expect(rows[0]).toEqual(['Course Name', 'Installments', 'Admission Fee (Rs.)']);
    expect(rows[1]).toEqual(['Yoga Basics', 3, 1000]);

    const bad = await t.api('POST', '/api/course-reports/custom', {
      token: admin.token,
      body: { fields: ['courseName', 'password', 'secret'] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe(
      'Unknown report columns: password, secret. Allowed columns: courseName, category, duration, totalFee, admissionFee, installments, createdAt, updatedAt, description.',
    );
  });
});

describe('treatment reports', () => {
  it('lists treatments narrowed by category and local price (minFee/maxFee accepted as well)', async () => {
    const res = await t.api('GET', '/api/treatment-reports/excel?format=json&category=Relaxation&minPrice=6000', {
      token: admin.token,
    });
    expect(res.body.data.map((r: ReportRow) => r.treatmentName)).toEqual(['Shirodhara']);
    const alias = await t.api('GET', '/api/treatment-reports/excel?format=json&maxFee=9000', { token: admin.token });
    expect(alias.body.data.map((r: ReportRow) => r.treatmentName).sort()).toEqual(['Abhyanga', 'Shirodhara']);
    const file = await download(t.baseUrl, 'GET', '/api/treatment-reports/excel', { token: admin.token });
    expect(file.headers.get('content-disposition')).toBe(
      `attachment; filename="list_treatment_report_${today()}.xlsx"`,
    );
    const { rows } = await readXlsx(file.bytes);
    expect(rows[0]).toEqual([
      'Treatment Name',
      'Category',
      'Local Price (Rs.)',
      'Foreign Price ($)',
      'Max Sessions',
      'Installments',
      'Duration',
      'Created At',
    ]);
    expect(rows.find((r) => r[0] === 'Panchakarma')!.slice(0, 7)).toEqual([
      'Panchakarma',
      'Detox',
      15000,
      60,
      5,
      3,
      '2W',
    ]);
  });

  it('reports bookings with money per currency; cancelled bookings are listed but not totalled', async () => {
    const res = await t.api('GET', '/api/treatment-reports/bookings?format=json', { token: admin.token });
    expect(res.status).toBe(200);
    expect(
      res.body.data.map((r: ReportRow) => [
        r.customer,
        r.treatment,
        r.currency,
        r.price,
        r.paid,
        r.outstanding,
        r.status,
      ]),
    ).toEqual([
      ['sunil', 'Panchakarma', 'LKR', 15000, 5000, 10000, 'active'],
      ['anne', 'Panchakarma', 'USD', 60, 60, 0, 'active'],
      ['sunil', 'Shirodhara', 'LKR', 8000.5, 0, 8000.5, 'active'],
      ['anne', 'Shirodhara', 'USD', 30.25, 0, 30.25, 'cancelled'],
    ]);
    expect(res.body.totals.map((r: ReportRow) => [r.customer, r.price, r.paid, r.outstanding])).toEqual([
      ['Total LKR (excluding cancelled)', 23000.5, 5000, 18000.5],
      ['Total USD (excluding cancelled)', 60, 60, 0],
    ]);
    const pdf = await download(t.baseUrl, 'GET', '/api/treatment-reports/bookings?format=pdf&startDate=2025-03-01', {
      token: admin.token,
    });
    expect(pdf.headers.get('content-disposition')).toBe(
      `attachment; filename="bookings_treatment_report_${today()}.pdf"`,
    );
    const text = (await readPdfText(pdf.bytes)).join(' ');
    expect(text).toContain('Treatment Booking Report');
    expect(text).toContain('Booked: from 01 Mar 2025');
    expect(text).toContain('Shirodhara');
    expect(text).not.toContain('Panchakarma');
  });

  it("prints each booking's payment status as the bookings screen shows it, overdue before the nightly job stores it", async () => {
    // The bookings were made in 2025 with their instalments due then: the unpaid ones are past
    // due, while the stored status is still the one written with them (partially paid, pending).
    const stored = await t.deps.db
      .select({ status: treatmentBookings.paymentStatus })
      .from(treatmentBookings)
      .orderBy(asc(treatmentBookings.bookedOn));
    expect(stored.map((r) => r.status)).toEqual(['partially_paid', 'paid', 'pending', 'pending']);
    const list = await t.api('GET', '/api/bookings/bookings', { token: admin.token });
    expect(list.status).toBe(200);
    const shown = new Map<string, string>(
      list.body.map((b: { bookedOn: string; paymentStatus: string }) => [b.bookedOn, b.paymentStatus]),
    );
    const res = await t.api('GET', '/api/treatment-reports/bookings?format=json', { token: admin.token });
    expect(res.body.data.map((r: ReportRow) => [r.bookedOn, r.paymentStatus])).toEqual([
      ['2025-01-05', 'overdue'],
      ['2025-02-10', 'paid'],
      ['2025-03-03', 'overdue'],
      // A cancelled booking is never overdue.
      ['2025-03-04', 'pending'],
    ]);
    for (const r of res.body.data as ReportRow[]) expect(r.paymentStatus).toBe(shown.get(r.bookedOn as string));
  });

  it('reports revenue per treatment and currency, with a local total at the current exchange rate', async () => {
    const res = await t.api('GET', '/api/treatment-reports/revenue?format=json', { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      {
        name: 'Panchakarma',
        category: 'Detox',
        currency: 'LKR',
        count: 1,
        expected: 15000,
        collected: 5000,
        refunded: 0,
        net: 5000,
        outstanding: 10000,
      },
      {
        name: 'Panchakarma',
        category: 'Detox',
        currency: 'USD',
        count: 1,
        expected: 60,
        collected: 60,
        refunded: 0,
        net: 60,
        outstanding: 0,
      },
      {
        name: 'Shirodhara',
        category: 'Relaxation',
        currency: 'LKR',
        count: 1,
        expected: 8000.5,
        collected: 0,
        refunded: 0,
        net: 0,
        outstanding: 8000.5,
      },
    ]);
    // 60 USD x 320.75 = 19245 LKR
    expect(res.body.totals.local).toEqual({
      currency: 'LKR',
      exchangeRate: 320.75,
      expected: 42245.5,
      collected: 24245,
      refunded: 0,
      net: 24245,
      outstanding: 18000.5,
    });

    const file = await download(t.baseUrl, 'GET', '/api/treatment-reports/revenue', { token: admin.token });
    expect(file.headers.get('content-disposition')).toBe(
      `attachment; filename="revenue_treatment_report_${today()}.xlsx"`,
    );
    const { rows } = await readXlsx(file.bytes);
    expect(rows[0]).toEqual([
      'Treatment',
      'Category',
      'Currency',
      'Bookings',
      'Billed',
      'Collected',
      'Refunded',
      'Net',
      'Outstanding',
    ]);
    const last = rows[rows.length - 1]!;
    expect(last[0]).toBe('Total in LKR (1 USD = 320.75 LKR)');
    expect(last.slice(4)).toEqual([42245.5, 24245, 0, 24245, 18000.5]);
  });

  it('builds a custom treatment report from allowed columns only', async () => {
    const def = await t.api('POST', '/api/treatment-reports/custom?format=json&category=Detox', {
      token: admin.token,
      body: {},
    });
    expect(def.body.data).toEqual([{ treatmentName: 'Panchakarma', category: 'Detox', price: 15000 }]);
    const bad = await t.api('POST', '/api/treatment-reports/custom', {
      token: admin.token,
      body: { fields: ['foreignPrice'] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^Unknown report column: foreignPrice\. Allowed columns: treatmentName, category/);
    const file = await download(t.baseUrl, 'POST', '/api/treatment-reports/custom?format=pdf', {
      token: admin.token,
      body: { fields: ['treatmentName', 'duration'] },
    });
    expect(file.headers.get('content-disposition')).toBe(
      `attachment; filename="custom_treatment_report_${today()}.pdf"`,
    );
    expect((await readPdfText(file.bytes)).join(' ')).toContain('Custom Treatment Report');
  });
});

describe('user reports', () => {
  it('downloads the user report as Excel and PDF, never with a password', async () => {
    const xlsx = await download(t.baseUrl, 'GET', '/api/reports/users/excel?role=student', { token: admin.token });
    expect(xlsx.headers.get('content-disposition')).toBe(`attachment; filename="user_report_${today()}.xlsx"`);
    const { rows } = await readXlsx(xlsx.bytes);
    expect(rows[0]).toEqual(['Username', 'Full Name', 'Email', 'Role', 'Branch', 'Phone', 'Created At']);
    expect(rows.slice(1).map((r) => [r[0], r[4]])).toEqual([
      ['nimal', 'Colombo'],
      ['kamala', 'Colombo'],
    ]);
    // Created At is a date cell with a date-time format, holding the time in Asia/Colombo (+05:30)
    // to the second, not text.
    const { sheet } = await readXlsx(xlsx.bytes);
    const [nimal] = await t.deps.db
      .select({ createdAt: users.createdAt })
      .from(users)
      .where(eq(users.username, 'nimal'));
    const created = sheet.getRow(2).getCell(7);
    expect(created.value).toBeInstanceOf(Date);
    const shift = (created.value as Date).getTime() - nimal!.createdAt.getTime();
    expect(Math.abs(shift - 5.5 * 3600_000)).toBeLessThan(1000);
    expect(created.numFmt).toBe('dd mmm yyyy, hh:mm');
    const pdf = await download(t.baseUrl, 'GET', '/api/reports/users/pdf', { token: admin.token });
    expect(pdf.headers.get('content-disposition')).toBe(`attachment; filename="user_report_${today()}.pdf"`);
    const text = (await readPdfText(pdf.bytes)).join(' ');
    expect(text).toContain('User Report');
    expect(text).toContain('sunil@example.com');
    expect(text).not.toMatch(/argon2|password/i);
  });

  it('answers a custom user report with the chosen columns and refuses the password column', async () => {
    const res = await t.api('POST', `/api/reports/users/custom?format=json&branchId=${branchB.id}`, {
      token: admin.token,
      body: { fields: ['email', 'role'] },
    });
    expect(res.status).toBe(200);
    // Oldest first: anne joined 40 days ago.
    expect(res.body.data).toEqual([
      { email: 'anne@example.com', role: 'user' },
      { email: 'sunil@example.com', role: 'customer' },
    ]);
    const bad = await t.api('POST', '/api/reports/users/custom', {
      token: admin.token,
      body: { fields: ['password'] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^Unknown report column: password\./);
  });
});

describe('access', () => {
  const paths: Array<[string, string]> = [
    ['GET', '/api/reports/users/stats'],
    ['GET', '/api/reports/users/excel'],
    ['GET', '/api/reports/users/pdf'],
    ['POST', '/api/reports/users/custom'],
    ['GET', '/api/course-reports/stats'],
    ['GET', '/api/course-reports/excel'],
    ['GET', '/api/course-reports/pdf'],
    ['GET', '/api/course-reports/enrollments'],
    ['GET', '/api/course-reports/revenue'],
    ['POST', '/api/course-reports/custom'],
    ['GET', '/api/treatment-reports/stats'],
    ['GET', '/api/treatment-reports/excel'],
    ['GET', '/api/treatment-reports/pdf'],
    ['GET', '/api/treatment-reports/bookings'],
    ['GET', '/api/treatment-reports/revenue'],
    ['POST', '/api/treatment-reports/custom'],
  ];

  it('answers 401 without a session and 403 to a customer on every report path', async () => {
    for (const [method, path] of paths) {
      const body = method === 'POST' ? {} : undefined;
      expect((await t.api(method, path, { body })).status, path).toBe(401);
      expect((await t.api(method, path, { token: customer.token, body })).status, path).toBe(403);
    }
    await expect(t.trpc(customer.token).reports.courseStats.query()).rejects.toMatchObject({
      data: { code: 'FORBIDDEN' },
    });
    await expect(t.trpc().reports.treatmentStats.query()).rejects.toMatchObject({ data: { code: 'UNAUTHORIZED' } });
  });

  it('answers 404 for an unknown or malformed report file id', async () => {
    expect((await t.api('GET', '/api/reports/files/not-a-uuid', { token: admin.token })).status).toBe(404);
    expect(
      (await t.api('GET', '/api/reports/files/00000000-0000-4000-8000-000000000000/download', { token: admin.token }))
        .status,
    ).toBe(404);
  });
});
