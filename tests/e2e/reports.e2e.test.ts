import fs from 'node:fs';
import ExcelJS from 'exceljs';
import type { Download, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { plural } from '@shared/format';
import { accounts, api, signIn, tokenFor, useBrowser } from './helpers';

const browser = useBrowser();

async function saved(page: Page, click: () => Promise<void>): Promise<{ download: Download; bytes: Buffer }> {
  const [download] = await Promise.all([page.waitForEvent('download'), click()]);
  const file = await download.path();
  return { download, bytes: fs.readFileSync(file) };
}

describe('reports', () => {
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
});
