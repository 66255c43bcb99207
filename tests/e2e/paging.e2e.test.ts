import type { Page, Request } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { accounts, factory, signIn, unique, useBrowser } from './helpers';

const browser = useBrowser();

/** The `users.list` inputs the screen asked for, in order (tRPC's batched GET carries them in `input`). */
function listInputs(page: Page): Array<Record<string, unknown>> {
  const inputs: Array<Record<string, unknown>> = [];
  page.on('request', (req: Request) => {
    const url = new URL(req.url());
    if (!url.pathname.startsWith('/trpc/') || !url.pathname.includes('users.list')) return;
    const paths = url.pathname.slice('/trpc/'.length).split(',');
    const batch = JSON.parse(url.searchParams.get('input') ?? '{}') as Record<string, Record<string, unknown>>;
    paths.forEach((p, i) => p === 'users.list' && inputs.push(batch[i] ?? {}));
  });
  return inputs;
}

const usernames = (page: Page) => page.getByTestId('user-row').locator('td:nth-child(2)').allInnerTexts();

describe('paging a list', () => {
  test('Next reads the page after the last row shown, while the URL and the pager keep the page number', async () => {
    // 27 students found by one search: 25 on page 1 and 2 on page 2, newest first.
    const tag = unique('Pager').replace(/\W/g, '');
    const branch = await factory.branch();
    for (let i = 0; i < 27; i++)
      await factory.student({ username: `${tag}u${i}`, fullName: `Paged ${i}`, branch: branch._id });

    const page = await browser.newPage();
    await signIn(page, accounts().superadmin);
    const inputs = listInputs(page);
    await page.goto(`/users?q=${tag}`);
    await expect.poll(async () => (await usernames(page)).length).toBe(25);
    const first = await usernames(page);
    expect(await page.getByTestId('pagination-summary').textContent()).toBe('Showing 1–25 of 27');

    // A student added now comes first; page 2 by number would repeat page 1's last row.
    await factory.student({ username: `${tag}late`, fullName: 'Paged late', branch: branch._id });

    await page.getByRole('button', { name: 'Next page' }).click();
    await page.waitForURL((url) => url.searchParams.get('page') === '2' && url.searchParams.get('q') === tag);
    await expect.poll(() => usernames(page)).toEqual([`${tag}u1`, `${tag}u0`]);
    expect(first).not.toContain(`${tag}u1`);
    await page.getByText('Page 2 of 2').waitFor();
    const byNext = inputs.filter((i) => i.page === 2);
    expect(byNext).toHaveLength(1);
    expect(byNext[0]).toMatchObject({ search: tag, cursor: expect.any(String) });

    await page.getByRole('button', { name: 'Previous page' }).click();
    await page.waitForURL((url) => url.searchParams.get('page') === null && url.searchParams.get('q') === tag);
    await expect.poll(async () => (await usernames(page)).length).toBe(25);

    // A typed address carries no cursor: the page goes by its number, and the late row shifts it.
    await page.goto(`/users?q=${tag}&page=2`);
    await expect.poll(() => usernames(page)).toEqual([`${tag}u2`, `${tag}u1`, `${tag}u0`]);
    const byNumber = inputs.filter((i) => i.page === 2).slice(1);
    expect(byNumber).toHaveLength(1);
    expect(byNumber[0]).toMatchObject({ search: tag });
    expect(byNumber[0]).not.toHaveProperty('cursor');
  });
});
