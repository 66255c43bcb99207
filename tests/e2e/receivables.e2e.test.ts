import fs from 'node:fs';
import { describe, expect, test } from 'vitest';
import { addToDate, todayIn } from '../../src/shared/calendar';
import { accounts, api, factory, pageOverflow, settle, signIn, tokenFor, unique, useBrowser } from './helpers';

const browser = useBrowser();

/** A student of a branch of their own who joined 45 days ago and has paid nothing: 5,000.00 is 31–60 days overdue. */
async function overdueStudent() {
  const branch = await factory.branch({ name: unique('Receivables') });
  const student = await factory.student({ branch: branch._id });
  const course = await factory.course({ totalFee: 5000, installments: 1, admissionFee: 0 });
  const token = await tokenFor(accounts().admin);
  const enrolledOn = addToDate(todayIn('Asia/Colombo'), { days: -45 });
  const res = await api('POST', '/api/enrollments', {
    token,
    body: { userId: student._id, courseId: course._id, paymentType: 'full', enrolledOn },
  });
  expect(res.status).toBe(201);
  return { branch, student, course };
}

describe('receivables', () => {
  test('the Receivables tab lists who owes, by age, with totals and files (1360 px)', async () => {
    const { branch, student, course } = await overdueStudent();
    const page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
    await signIn(page, accounts().admin);
    await page.goto('/payments');
    await page.getByRole('tab', { name: 'Receivables' }).click();
    await page.waitForURL(/tab=receivables/);
    // The till card above the tabs has a Branch field of its own.
    const tab = page.getByRole('tabpanel', { name: 'Receivables' });
    await tab.getByLabel('Branch').selectOption(branch._id);
    await tab.getByLabel('Course').selectOption(course._id);

    const row = page.getByTestId('receivable-row').filter({ hasText: `Student ${student.username}` });
    await row.waitFor();
    // The list keeps the previous rows on screen while the filtered ones load.
    await expect.poll(() => page.getByTestId('receivable-row').count()).toBe(1);
    const cells = await row.getByRole('cell').allInnerTexts();
    // Person, phone, 1–30, 31–60, 61–90, over 90, total, oldest due.
    expect(cells[2]).toBe('—');
    expect(cells[3]).toMatch(/5,000\.00/);
    expect(cells[6]).toMatch(/5,000\.00/);
    expect(await row.getByRole('link').getAttribute('href')).toBe(`/users/${student._id}?tab=statement`);
    await expect
      .poll(() => page.getByTestId('receivables-totals').innerText())
      .toMatch(/Overdue \(LKR\): Rs\. 5,000\.00/);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Excel' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^receivables_\d{4}-\d{2}-\d{2}\.xlsx$/);
    expect(
      fs
        .readFileSync(await download.path())
        .subarray(0, 2)
        .toString(),
    ).toBe('PK');
    expect(await pageOverflow(page)).toBe(0);

    // The name opens the person's details on the Statement tab, which the URL keeps.
    await row.getByRole('link').click();
    await page.waitForURL((url) => url.pathname === `/users/${student._id}`);
    const statementTab = page.getByRole('tab', { name: 'Statement' });
    await expect.poll(() => statementTab.getAttribute('aria-selected')).toBe('true');
    await page.getByTestId('statement-line').filter({ hasText: course.courseName }).first().waitFor();
    await page.getByRole('tab', { name: 'Records' }).click();
    await page.waitForURL((url) => !url.searchParams.has('tab'));
    await page.reload();
    await expect.poll(() => page.getByRole('tab', { name: 'Records' }).getAttribute('aria-selected')).toBe('true');
    await page.goto(`/users/${student._id}?tab=statement`);
    await expect.poll(() => statementTab.getAttribute('aria-selected')).toBe('true');
  });

  test('fits a phone (390 px) without sideways scrolling', async () => {
    const { branch, student } = await overdueStudent();
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await signIn(page, accounts().admin);
    await page.goto('/payments?tab=receivables');
    await page.getByRole('tabpanel', { name: 'Receivables' }).getByLabel('Branch').selectOption(branch._id);
    await page
      .getByTestId('receivable-row')
      .filter({ hasText: `Student ${student.username}` })
      .waitFor();
    await settle(page);
    expect(await pageOverflow(page)).toBe(0);
    // The tab and the file buttons are within the window.
    for (const target of [
      page.getByRole('tab', { name: 'Receivables' }),
      page.getByRole('button', { name: 'Excel' }),
      page.getByRole('button', { name: 'PDF' }),
    ]) {
      const box = await target.boundingBox();
      expect(box).not.toBeNull();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(390.5);
    }
  });
});
