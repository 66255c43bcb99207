import type { Locator, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import {
  accounts,
  adminScreens,
  pageOverflow,
  primaryAction,
  PUBLIC_SCREENS,
  settle,
  signIn,
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
