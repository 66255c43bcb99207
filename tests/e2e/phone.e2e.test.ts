import type { Locator, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import {
  accounts,
  adminScreens,
  api,
  pageOverflow,
  primaryAction,
  PUBLIC_SCREENS,
  settle,
  signIn,
  tokenFor,
  useBrowser,
  walkScreens,
  type Screen,
} from './helpers';

const browser = useBrowser();
const PHONE = { width: 390, height: 844 };

/** Scrolls the element into view as a person would (the page, or the table it sits in), then says where it is. */
async function onScreen(target: Locator): Promise<string | null> {
  if (
    !(await target.scrollIntoViewIfNeeded({ timeout: 5_000 }).then(
      () => true,
      () => false,
    ))
  )
    return 'not found';
  if (!(await target.isVisible())) return 'not visible';
  const box = await target.boundingBox();
  if (!box) return 'no box';
  if (box.x < 0 || box.x + box.width > PHONE.width + 0.5)
    return `off-screen (x ${Math.round(box.x)}, width ${Math.round(box.width)})`;
  return null;
}

/** What is wrong with the open screen at phone width, one line per problem. */
async function problemsOf(page: Page, screen: Screen): Promise<string[]> {
  const problems: string[] = [];
  const overflow = await pageOverflow(page);
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  if (scrollWidth > PHONE.width) problems.push(`${screen.path}: the page is ${scrollWidth}px wide (+${overflow})`);
  if (screen.primary) {
    const where = await onScreen(primaryAction(page, screen.primary));
    if (where) problems.push(`${screen.path}: primary action ${String(screen.primary.name)} ${where}`);
  }
  // A table's row actions sit in its last column: reachable by scrolling the table, on screen then.
  const rowAction = page.locator('tbody tr').first().locator('td').last().locator('button, a').last();
  if ((await rowAction.count()) > 0) {
    const where = await onScreen(rowAction);
    if (where) problems.push(`${screen.path}: the first row's last action ${where}`);
  }
  return problems;
}

describe('at phone width (390 x 844)', () => {
  test('the screens before sign-in fit and show their action', async () => {
    const page = await browser.newPage({ viewport: PHONE });
    expect(await walkScreens(page, PUBLIC_SCREENS, problemsOf)).toEqual([]);
  });

  test('every back-office screen fits the width, with its primary action and row actions reachable', async () => {
    const screens = await adminScreens();
    const page = await browser.newPage({ viewport: PHONE });
    await signIn(page, accounts().superadmin);
    const problems = await walkScreens(page, screens, problemsOf);

    // The report screen's other tab (filters and downloads) fits too.
    await page.goto('/reports');
    await settle(page);
    await page.getByRole('tab', { name: 'Reports' }).first().click();
    await settle(page);
    if ((await pageOverflow(page)) > 0) problems.push('/reports, Reports tab: the page scrolls sideways');
    expect(problems).toEqual([]);
  }, 300_000);

  test('enrolment details with the admission fee switch and its History, the overdue table and the audit log fit', async () => {
    // student1's demo enrolment: overdue, its admission fee paid, with History entries.
    const token = await tokenFor(accounts().admin);
    const list = await api<{ data: Array<{ _id: string; userId: { username: string } | null; status: string }> }>(
      'GET',
      '/api/enrollments?limit=200',
      { token },
    );
    const e = list.body.data.find((x) => x.userId?.username === 'student1' && x.status === 'Active');
    expect(e).toBeDefined();
    const page = await browser.newPage({ viewport: PHONE });
    await signIn(page, accounts().superadmin);
    const wide = async (where: string) => {
      await settle(page);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      if (width <= PHONE.width) return [];
      // Name the innermost elements that reach past the edge, so a failure says what to fix.
      const culprits = await page.evaluate((edge) => {
        const past = [...document.body.querySelectorAll('*')].filter(
          (el) => el.getBoundingClientRect().right > edge + 0.5,
        );
        return past
          .filter((el) => !past.some((other) => other !== el && el.contains(other)))
          .slice(0, 3)
          .map((el) => `${el.tagName.toLowerCase()} "${(el.textContent ?? '').trim().slice(0, 40)}"`);
      }, PHONE.width);
      return [`${where}: the page is ${width}px wide (${culprits.join(', ')})`];
    };
    const problems: string[] = [];

    await page.goto(`/courses/course/enrollment/${e!._id}`);
    const fee = page.getByRole('button', { name: /^Mark Admission Fee as (Paid|Unpaid)$/ });
    await fee.waitFor();
    await page.getByTestId('history-entry').first().waitFor();
    problems.push(...(await wide('enrolment details')));
    const feeWhere = await onScreen(fee);
    if (feeWhere) problems.push(`enrolment details: Mark Admission Fee ${feeWhere}`);
    const entryWhere = await onScreen(page.getByTestId('history-entry').first());
    if (entryWhere) problems.push(`enrolment details: the first History entry ${entryWhere}`);

    await page.goto('/');
    await page.getByRole('table', { name: 'Most overdue accounts' }).getByTestId('overdue-account').first().waitFor();
    problems.push(...(await wide('dashboard')));

    await page.goto('/audit');
    await page.locator('tbody tr').first().waitFor();
    problems.push(...(await wide('audit log')));
    expect(problems).toEqual([]);
  });

  test('a confirmation dialog and the profile menu fit the width', async () => {
    const page = await browser.newPage({ viewport: PHONE });
    await signIn(page, accounts().superadmin);
    await page.goto('/branch');
    await settle(page);
    await page
      .getByRole('button', { name: /^Delete / })
      .first()
      .click();
    const dialog = page.getByRole('alertdialog');
    await dialog.waitFor();
    expect(await onScreen(dialog)).toBeNull();
    expect(await onScreen(dialog.getByRole('button', { name: 'Delete' }))).toBeNull();
    expect(await onScreen(dialog.getByRole('button', { name: 'Cancel' }))).toBeNull();
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    await page.getByRole('button', { name: /profile menu/i }).click();
    const menu = page.getByRole('menu');
    await menu.waitFor();
    expect(await onScreen(menu)).toBeNull();
    expect(await pageOverflow(page)).toBe(0);
  });
});
