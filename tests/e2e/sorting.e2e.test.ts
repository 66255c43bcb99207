import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { accounts, api, factory, signIn, tokenFor, unique, useBrowser } from './helpers';

const browser = useBrowser();

/** The Total Fee column of the courses table, as numbers, top to bottom. */
async function fees(page: Page): Promise<number[]> {
  const cells = await page.getByTestId('course-row').locator('td:nth-child(5)').allInnerTexts();
  // 'Rs. 45,000.00' -> 45000
  return cells.map((t) => Number(/-?[\d,]+\.\d{2}/.exec(t)?.[0].replace(/,/g, '') ?? Number.NaN));
}

const ascending = (xs: number[]) => xs.every((x, i) => i === 0 || xs[i - 1]! <= x);
const descending = (xs: number[]) => xs.every((x, i) => i === 0 || xs[i - 1]! >= x);

describe('sorting a list by a column', () => {
  test('the courses sort by Total Fee both ways on the server, and the sort stays in the URL', async () => {
    const page = await browser.newPage();
    await signIn(page, accounts().superadmin);
    await page.goto('/courses');
    await page.getByTestId('course-row').first().waitFor();
    const header = page.getByRole('columnheader', { name: 'Total Fee' });
    expect(await header.getAttribute('aria-sort')).toBeNull();

    await header.getByRole('button').click();
    await page.waitForURL(
      (url) => url.searchParams.get('sort') === 'totalFee' && url.searchParams.get('dir') === 'asc',
    );
    await expect.poll(async () => ascending(await fees(page))).toBe(true);
    expect(await header.getAttribute('aria-sort')).toBe('ascending');
    const up = await fees(page);
    expect(up.length).toBeGreaterThan(1);

    await header.getByRole('button').click();
    await page.waitForURL((url) => url.searchParams.get('dir') === 'desc');
    // Page 1 of the descending order starts at the highest fee there is, at least the highest of
    // the ascending page 1 (other tests' courses may make the list longer than a page).
    await expect
      .poll(async () => {
        const down = await fees(page);
        return descending(down) && down[0]! >= Math.max(...up);
      })
      .toBe(true);
    expect(await header.getAttribute('aria-sort')).toBe('descending');

    // A reload (or a shared link) shows the same order.
    await page.reload();
    await page.getByTestId('course-row').first().waitFor();
    expect(descending(await fees(page))).toBe(true);
    expect(await page.getByRole('columnheader', { name: 'Total Fee' }).getAttribute('aria-sort')).toBe('descending');
  });

  test('the treatments sort by Max Sessions from the keyboard', async () => {
    const page = await browser.newPage();
    await signIn(page, accounts().superadmin);
    await page.goto('/treatment/all-treatment');
    await page.getByTestId('treatment-row').first().waitFor();
    await page.getByRole('columnheader', { name: 'Max Sessions' }).getByRole('button').focus();
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.searchParams.get('sort') === 'maxSessions');
    await expect
      .poll(async () => {
        const cells = await page.getByTestId('treatment-row').locator('td:nth-child(5)').allInnerTexts();
        const sessions = cells.map(Number);
        return sessions.length > 1 && ascending(sessions);
      })
      .toBe(true);
  });
});

describe('the Payments and Audit log lists', () => {
  test('the payments sort by Amount on the server with their filters, both kept in the URL', async () => {
    const token = await tokenFor(accounts().admin);
    const courseName = unique('Certificate in Sorting');
    const course = await api<{ _id: string }>('POST', '/api/course', {
      token,
      body: { courseName, duration: '1 month', totalFee: 20000, installments: 1, category: 'Ledgers', admissionFee: 0 },
    });
    const enrolment = await factory.enrollment(course.body._id, 'full');
    for (const [amount, method] of [
      [1000, 'cash'],
      [3000, 'cash'],
      [1500, 'card'],
      [2000, 'cash'],
    ] as const) {
      const paid = await api('POST', '/api/payments', {
        token,
        body: { enrollmentId: enrolment._id, amount, method },
      });
      expect(paid.status).toBe(201);
    }

    const page = await browser.newPage();
    await signIn(page, accounts().superadmin);
    await page.goto(`/payments?method=cash&q=${encodeURIComponent(courseName)}`);
    const rows = page.getByTestId('payment-row');
    await rows.first().waitFor();
    expect(await page.getByLabel('Method').inputValue()).toBe('cash');
    const amounts = async () =>
      (await rows.getByTestId('payment-amount').allInnerTexts()).map((t) =>
        Number(/-?[\d,]+\.\d{2}/.exec(t)?.[0].replace(/,/g, '') ?? Number.NaN),
      );
    const header = page.getByRole('columnheader', { name: 'Amount' });
    await header.getByRole('button').click();
    await page.waitForURL((url) => url.searchParams.get('sort') === 'amount' && url.searchParams.get('dir') === 'asc');
    expect(new URL(page.url()).searchParams.get('method')).toBe('cash');
    await expect.poll(amounts).toEqual([1000, 2000, 3000]);
    await header.getByRole('button').click();
    await page.waitForURL((url) => url.searchParams.get('dir') === 'desc');
    await expect.poll(amounts).toEqual([3000, 2000, 1000]);
    // Only cash payments are listed, and a reload keeps the filter, the order and the header's state.
    await expect
      .poll(async () => new Set((await rows.locator('td:nth-child(5)').allInnerTexts()).map((t) => t.split('\n')[0])))
      .toEqual(new Set(['Cash']));
    await page.reload();
    await rows.first().waitFor();
    expect(await page.getByLabel('Method').inputValue()).toBe('cash');
    expect(await page.getByRole('columnheader', { name: 'Amount' }).getAttribute('aria-sort')).toBe('descending');
  });

  test('the audit log turns to oldest first by its Time header, in the URL', async () => {
    const page = await browser.newPage();
    await signIn(page, accounts().superadmin);
    await page.goto('/audit');
    const rows = page.getByTestId('audit-row');
    await rows.first().waitFor();
    const times = async () =>
      (await rows.locator('td:nth-child(2)').allInnerTexts()).map((t) => Date.parse(t.replace(',', '')));
    await page.getByText(/newest first/).waitFor();
    expect(descending(await times())).toBe(true);
    await page.getByRole('columnheader', { name: 'Time' }).getByRole('button').click();
    await page.waitForURL((url) => url.searchParams.get('dir') === 'asc');
    await page.getByText(/oldest first/).waitFor();
    await expect.poll(async () => ascending(await times())).toBe(true);
  });
});
