import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { accounts, signIn, useBrowser } from './helpers';

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
    await expect.poll(async () => descending(await fees(page)) && (await fees(page))[0] === Math.max(...up)).toBe(true);
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
