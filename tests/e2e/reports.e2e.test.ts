import fs from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import type { Download, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { plural } from '@shared/format';
import { todayIn } from '../../src/shared/calendar';
import type { TAppointmentReport } from '../../src/shared/schemas/appointment-reports';
import { readPdfText } from '../helpers/report-factories';
import {
  accounts,
  api,
  factory,
  otherDayZone,
  pageOverflow,
  settle,
  signIn,
  tokenFor,
  unique,
  useBrowser,
} from './helpers';

const browser = useBrowser();

/** Screenshots for a person to look at, when SHOTS_DIR names a folder. */
async function shot(target: Pick<Page, 'screenshot'>, name: string) {
  const dir = process.env.SHOTS_DIR;
  if (!dir) return;
  fs.mkdirSync(dir, { recursive: true });
  await target.screenshot({ path: path.join(dir, `${name}.png`) });
}

async function saved(page: Page, click: () => Promise<void>): Promise<{ download: Download; bytes: Buffer }> {
  const [download] = await Promise.all([page.waitForEvent('download'), click()]);
  const file = await download.path();
  return { download, bytes: fs.readFileSync(file) };
}

describe('reports', () => {
  test("the appointments and attendance ranges end today on the organisation's clock, whatever the browser's zone", async () => {
    const today = todayIn('Asia/Colombo');
    const page = await browser.newPage({ timezoneId: otherDayZone() });
    await signIn(page, accounts().admin);
    await page.goto('/reports');
    for (const name of ['Appointments', 'Attendance']) {
      const section = page.getByRole('region', { name, exact: true });
      await expect.poll(() => section.getByLabel('To').inputValue()).toBe(today);
    }
    await page.close();
  });

  test('shows the statistics with charts, switches tabs, filters, and downloads Excel and PDF files', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await signIn(page, accounts().manager);
    await page.goto('/reports');

    // User statistics: cards, the role pie and the branch bar chart are drawn.
    const users = page.getByRole('region', { name: 'User Statistics' });
    await users.getByText('Total Users').waitFor();
    await users.getByText('New Users (30 days)').waitFor();
    await page.getByTestId('role-chart').locator('svg .recharts-pie-sector').first().waitFor();
    expect(await page.getByTestId('role-chart').locator('svg .recharts-pie-sector').count()).toBeGreaterThan(1);
    await page.getByTestId('branch-chart').locator('svg .recharts-bar-rectangle').first().waitFor();
    await users.getByText('Branch Details').waitFor();
    expect(await users.getByRole('row').count()).toBeGreaterThan(1);

    // The user report as Excel: saved under the documented name, and it opens.
    const xlsx = await saved(page, () => users.getByRole('button', { name: 'Excel Report' }).click());
    expect(xlsx.download.suggestedFilename()).toMatch(/^user_report_\d{4}-\d{2}-\d{2}\.xlsx$/);
    expect(xlsx.bytes.length).toBeGreaterThan(0);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(xlsx.bytes as unknown as ArrayBuffer);
    expect(wb.worksheets[0]!.getRow(1).getCell(1).value).toBe('Username');

    // Course analytics: statistics first, then the Reports tab with filters.
    const courses = page.getByRole('region', { name: 'Course Analytics' });
    await courses.getByText('Average Fee').waitFor();
    await courses.getByText('Most Popular Courses').waitFor();
    await courses.getByTestId('course-category-chart').locator('svg .recharts-bar-rectangle').first().waitFor();
    await courses.getByRole('tab', { name: 'Reports' }).click();
    await courses.getByText('Enrollment Report').waitFor();

    const token = await tokenFor(accounts().manager);
    const all = await api<{ total: number }>('GET', '/api/course-reports/excel?format=json', { token });
    const psych = await api<{ total: number }>('GET', '/api/course-reports/excel?format=json&category=Psychology', {
      token,
    });
    expect(psych.body.total).toBeLessThan(all.body.total);
    const count = courses.getByTestId('course-match-count');
    await count.getByText(plural(all.body.total, 'course'), { exact: false }).waitFor();
    await courses.getByRole('combobox', { name: 'Category' }).fill('Psychology');
    await courses.getByRole('button', { name: 'Apply Filters' }).click();
    // One course reads '1 course', not '1 courses'.
    await count.getByText(`Matching: ${plural(psych.body.total, 'course')},`, { exact: false }).waitFor();

    // The filtered course list as a PDF.
    const courseList = courses.locator('[data-slot=card]').filter({ hasText: 'Course List' });
    const pdf = await saved(page, () => courseList.getByRole('button', { name: 'PDF' }).click());
    expect(pdf.download.suggestedFilename()).toMatch(/^course_report_\d{4}-\d{2}-\d{2}\.pdf$/);
    expect(pdf.bytes.length).toBeGreaterThan(0);
    expect(pdf.bytes.subarray(0, 5).toString()).toBe('%PDF-');

    // A bad filter is refused by the server and the user is told.
    await courses.getByLabel('Min Fee (Rs.)').fill('500');
    await courses.getByLabel('Max Fee (Rs.)').fill('100');
    await courses.getByRole('button', { name: 'Apply Filters' }).click();
    await courseList.getByRole('button', { name: 'Excel' }).click();
    await page
      .locator('[data-sonner-toast]')
      .filter({ hasText: 'Min Fee cannot be greater than Max Fee.' })
      .first()
      .waitFor();

    // Treatment analytics: statistics, then the booking report as Excel.
    const treatments = page.getByRole('region', { name: 'Treatment Analytics' });
    await treatments.getByText('Average Price (Local)').waitFor();
    await treatments.getByText('Price Range (Local)').waitFor();
    await treatments.getByRole('tab', { name: 'Reports' }).click();
    const bookingCard = treatments.locator('[data-slot=card]').filter({ hasText: 'Booking Report' });
    const bookings = await saved(page, () => bookingCard.getByRole('button', { name: 'Excel' }).click());
    expect(bookings.download.suggestedFilename()).toMatch(/^bookings_treatment_report_\d{4}-\d{2}-\d{2}\.xlsx$/);
    const bwb = new ExcelJS.Workbook();
    await bwb.xlsx.load(bookings.bytes as unknown as ArrayBuffer);
    expect(bwb.worksheets[0]!.getRow(1).getCell(1).value).toBe('Customer');
    await treatments.getByRole('tab', { name: 'Statistics' }).click();
    await treatments.getByText('Most Popular Treatments').waitFor();
  });

  test('the appointments section shows utilisation and no-shows for the chosen days, and downloads them', async () => {
    const token = await tokenFor(accounts().superadmin);
    const ok = <T>(res: { status: number; body: T }, status = 201) => {
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      return res.body;
    };
    // A practitioner working round the clock at a new branch, and a customer with ten sessions.
    const branch = await factory.branch({ name: unique('Report Clinic') });
    const treatment = ok(
      await api<{ _id: string }>('POST', '/api/treatments', {
        token,
        body: {
          treatmentName: unique('Report Massage'),
          localPrice: 5000,
          foreignPrice: 50,
          maxSessions: 10,
          installments: 1,
          sessionMinutes: 60,
        },
      }),
    );
    const therapistName = unique('Report Therapist');
    const therapist = await factory.student({ branch: branch._id, fullName: therapistName });
    const practitioner = ok(
      await api<{ _id: string }>('POST', '/api/practitioners', {
        token,
        body: { userId: therapist._id, branchIds: [branch._id], treatmentIds: [treatment._id] },
      }),
    );
    const days = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
    ok(
      await api('PUT', `/api/practitioners/${practitioner._id}/working-plan`, {
        token,
        body: {
          branchId: branch._id,
          days: Object.fromEntries(days.map((d) => [d, [{ start: '00:00', end: '24:00' }]])),
        },
      }),
      200,
    );
    const customer = await factory.student({ branch: branch._id });
    const booking = ok(
      await api<{ _id: string }>('POST', '/api/bookings/book', {
        token,
        body: { treatmentId: treatment._id, userId: customer._id, userType: 'local', paymentType: 'full' },
      }),
    );
    // Yesterday in Colombo: one session completed, one missed.
    const yesterday = todayIn('Asia/Colombo', new Date(Date.now() - 86_400_000));
    const book = async (time: string) =>
      ok(
        await api<{ _id: string }>('POST', '/api/appointments', {
          token,
          body: {
            bookingId: booking._id,
            practitionerId: practitioner._id,
            branchId: branch._id,
            start: `${yesterday}T${time}:00+05:30`,
          },
        }),
      )._id;
    const status = async (id: string, to: string) =>
      ok(await api('POST', `/api/appointments/${id}/status`, { token, body: { status: to } }), 200);
    const done = await book('10:00');
    await status(done, 'arrived');
    await status(done, 'completed');
    await status(await book('12:00'), 'no_show');
    const expected = ok(
      await api<TAppointmentReport>('GET', `/api/reports/appointments?from=${yesterday}&to=${yesterday}`, { token }),
      200,
    );
    const use = expected.utilisation.find((u) => u.practitioner.fullName === therapistName)!;
    expect(use.bookedMinutes).toBeGreaterThan(0);

    const page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
    await signIn(page, accounts().admin);
    await page.goto('/reports');
    const section = page.getByRole('region', { name: 'Appointments' });
    await section.getByLabel('From').fill(yesterday);
    await section.getByLabel('To').fill(yesterday);
    await settle(page);

    const utilisation = section.locator('[data-slot=card]').filter({ hasText: 'Practitioner utilisation' });
    const useRow = utilisation.getByRole('row').filter({ hasText: therapistName });
    await useRow.waitFor();
    expect(await useRow.getByRole('cell').allInnerTexts()).toEqual([
      therapistName,
      branch.name,
      `${use.bookedMinutes} / ${use.workingMinutes}`,
      `${((use.rate ?? 0) * 100).toFixed(1)} %`,
    ]);
    const noShows = section.locator('[data-slot=card]').filter({ hasText: 'No-shows by practitioner' });
    const noShowRow = noShows.getByRole('row').filter({ hasText: therapistName });
    expect(await noShowRow.getByRole('cell').allInnerTexts()).toEqual([therapistName, '2', '1', '50.0 %']);

    // A day before anything was booked: the practitioner has working time but nothing booked or missed.
    const dayBefore = todayIn('Asia/Colombo', new Date(Date.now() - 3 * 86_400_000));
    await section.getByLabel('From').fill(dayBefore);
    await section.getByLabel('To').fill(dayBefore);
    await settle(page);
    await expect.poll(() => noShows.getByRole('row').filter({ hasText: therapistName }).count()).toBe(0);
    await section.getByLabel('From').fill(yesterday);
    await section.getByLabel('To').fill(yesterday);
    await useRow.waitFor();

    // The same report as Excel and as PDF, for the days shown.
    const xlsx = await saved(page, () => section.getByRole('button', { name: 'Excel' }).click());
    expect(xlsx.download.suggestedFilename()).toMatch(/^appointment_report_\d{4}-\d{2}-\d{2}\.xlsx$/);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(xlsx.bytes as unknown as ArrayBuffer);
    const cells = wb.worksheets.flatMap((ws) => {
      const out: string[] = [];
      ws.eachRow((row) => row.eachCell((cell) => out.push(cell.text)));
      return out;
    });
    expect(cells).toContain(therapistName);
    const pdf = await saved(page, () => section.getByRole('button', { name: 'PDF' }).click());
    expect(pdf.download.suggestedFilename()).toMatch(/^appointment_report_\d{4}-\d{2}-\d{2}\.pdf$/);
    expect((await readPdfText(pdf.bytes)).join(' ')).toContain(therapistName);

    // On a phone the section fits the width.
    await page.setViewportSize({ width: 390, height: 844 });
    await useRow.scrollIntoViewIfNeeded();
    expect(await pageOverflow(page)).toBe(0);
  });
  test('the attendance section shows a batch’s sessions and its students’ rates for the chosen days, and downloads them', async () => {
    const token = await tokenFor(accounts().superadmin);
    const ok = <T>(res: { status: number; body: T }, status = 201) => {
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      return res.body;
    };
    const day = (n: number) => todayIn('Asia/Colombo', new Date(Date.now() + n * 86_400_000));
    const branch = await factory.branch({ name: unique('Register Campus') });
    const course = await factory.course({ courseName: unique('Attendance Diploma') });
    const tag = unique('tutor').replace(/\W/g, '').toLowerCase();
    const tutor = ok(
      await api<{ _id: string }>('POST', '/api/users', {
        token,
        body: {
          username: tag,
          fullName: `Tutor ${tag}`,
          email: `${tag}@example.com`,
          password: 'long-enough-pw',
          role: 'user',
          branch: branch._id,
        },
      }),
    );
    // Every day from four days ago to yesterday: four sessions, the first cancelled.
    const batchName = unique('Evening register');
    const batch = ok(
      await api<{ _id: string }>('POST', '/api/batches', {
        token,
        body: {
          name: batchName,
          courseId: course._id,
          branchId: branch._id,
          instructorId: tutor._id,
          startDate: day(-4),
          endDate: day(-1),
          capacity: 10,
          timetable: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((weekday) => ({
            weekday,
            start: '07:00',
            end: '08:00',
          })),
        },
      }),
    );
    const sessions = ok(
      await api<{ data: Array<{ _id: string }> }>('GET', `/api/batches/${batch._id}/sessions`, { token }),
      200,
    ).data;
    expect(sessions).toHaveLength(4);
    ok(await api('POST', `/api/class-sessions/${sessions[0]!._id}/cancel`, { token, body: { reason: 'Storm' } }), 200);
    const keen = { fullName: unique('Keen Kasun') };
    const away = { fullName: unique('Away Anura') };
    const places: string[] = [];
    for (const who of [keen, away]) {
      const s = await factory.student({ fullName: who.fullName, branch: branch._id });
      const e = await factory.enrollment(course._id, 'installment', s.email);
      ok(
        await api('PUT', `/api/enrollments/${e._id}/batch`, { token, body: { batchId: batch._id, joinedOn: day(-4) } }),
        200,
      );
      places.push(e._id);
    }
    // Keen: present, late, present → 100 %. Away: absent, absent, present → 33.3 %.
    const plan = [
      ['present', 'absent'],
      ['late', 'absent'],
      ['present', 'present'],
    ];
    for (const [i, marks] of plan.entries())
      ok(
        await api('PUT', `/api/class-sessions/${sessions[i + 1]!._id}/attendance`, {
          token,
          body: { marks: marks.map((status, j) => ({ enrollmentId: places[j], status })) },
        }),
        200,
      );

    const page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
    await signIn(page, accounts().admin);
    await page.goto('/reports');
    const section = page.getByRole('region', { name: 'Attendance', exact: true });
    await section.getByLabel('From').fill(day(-4));
    await section.getByLabel('To').fill(day(-1));
    await section.getByLabel('Branch').selectOption(branch._id);
    await section.getByLabel('Batch').selectOption(batch._id);
    await settle(page);
    const batchRow = section.getByTestId('attendance-batch-row').filter({ hasText: batchName });
    await batchRow.waitFor();
    expect(await batchRow.getByRole('cell').allInnerTexts()).toEqual([
      batchName,
      branch.name,
      '4',
      '3',
      '1',
      '0',
      '3',
      '1',
      '2',
      '0',
      '0',
      '66.7 %',
    ]);
    const students = section.getByRole('table', { name: 'Attendance by student' });
    expect(
      await students.getByRole('row').filter({ hasText: keen.fullName }).getByRole('cell').allInnerTexts(),
    ).toEqual([keen.fullName, batchName, '3', '2', '1', '0', '0', '0', '100.0 %']);
    const under = section.getByRole('table', { name: 'Attendance under 75 %' });
    expect(await under.getByRole('row').filter({ hasText: away.fullName }).getByRole('cell').allInnerTexts()).toEqual([
      away.fullName,
      batchName,
      '3',
      '1',
      '0',
      '2',
      '0',
      '0',
      '33.3 %',
    ]);
    expect(await under.getByRole('row').filter({ hasText: keen.fullName }).count()).toBe(0);
    await shot(section, 'reports-attendance-1360');

    const xlsx = await saved(page, () => section.getByRole('button', { name: 'Excel' }).click());
    expect(xlsx.download.suggestedFilename()).toMatch(/^attendance_report_\d{4}-\d{2}-\d{2}\.xlsx$/);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(xlsx.bytes as unknown as ArrayBuffer);
    expect(wb.worksheets.map((w) => w.name)).toEqual(['By batch', 'By student', 'Under 75 %', 'Report info']);
    const under75: string[] = [];
    wb.getWorksheet('Under 75 %')!.eachRow((row) => under75.push(row.getCell(2).text));
    expect(under75).toEqual(['Student', away.fullName]);
    const pdf = await saved(page, () => section.getByRole('button', { name: 'PDF' }).click());
    expect(pdf.download.suggestedFilename()).toMatch(/^attendance_report_\d{4}-\d{2}-\d{2}\.pdf$/);
    expect(pdf.bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect((await readPdfText(pdf.bytes)).join(' ')).toContain(keen.fullName);
    if (process.env.SHOTS_DIR) fs.writeFileSync(path.join(process.env.SHOTS_DIR, 'attendance.pdf'), pdf.bytes);

    // On a phone the section fits the width (its wide tables scroll inside their boxes).
    await page.setViewportSize({ width: 390, height: 844 });
    await batchRow.scrollIntoViewIfNeeded();
    expect(await pageOverflow(page)).toBe(0);
    await shot(section, 'reports-attendance-390');
  });
});
