import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import {
  accounts,
  adminScreens,
  factory,
  pageOverflow,
  primaryAction,
  PUBLIC_SCREENS,
  signIn,
  unique,
  useBrowser,
  walkScreens,
  type Screen,
} from './helpers';

const browser = useBrowser();
const DESKTOP = { width: 1360, height: 900 };

/** What is wrong with the open screen at desktop width, one line per problem. */
async function problemsOf(page: Page, screen: Screen): Promise<string[]> {
  const problems: string[] = [];
  const overflow = await pageOverflow(page);
  if (overflow > 0) problems.push(`${screen.path}: the page scrolls sideways by ${overflow}px`);
  // Tables fit too: a list's row actions show without scrolling the table sideways.
  const tables = await page
    .locator('[data-slot=table-container]')
    .evaluateAll((els) => els.map((el) => el.scrollWidth - el.clientWidth));
  tables.forEach((extra, i) => {
    if (extra > 0) problems.push(`${screen.path}: table ${i + 1} scrolls sideways by ${extra}px`);
  });
  if (screen.primary) {
    const box = await primaryAction(page, screen.primary).boundingBox();
    if (!box) problems.push(`${screen.path}: primary action ${String(screen.primary.name)} not shown`);
    else if (box.x < 0 || box.x + box.width > DESKTOP.width)
      problems.push(`${screen.path}: primary action ${String(screen.primary.name)} off-screen`);
  }
  return problems;
}

describe('at desktop width (1360 x 900)', () => {
  test('the screens before sign-in fit', async () => {
    const page = await browser.newPage({ viewport: DESKTOP });
    expect(await walkScreens(page, PUBLIC_SCREENS, problemsOf)).toEqual([]);
  });

  test('every back-office screen fits the width, its tables and primary action included', async () => {
    // The longest values the forms accept come first in their lists (newest first): one long name
    // or e-mail must wrap inside its cell rather than push the row actions out of view.
    const tag = unique('Long').replace(/\W/g, '');
    await factory.student({
      username: `${tag}${'x'.repeat(50)}`.slice(0, 50),
      fullName: `Anuradha Wickramasinghe Jayawardena ${tag} Senanayake Rajapaksha Gunawardena`.slice(0, 100),
      email: `${tag.toLowerCase()}.${'y'.repeat(40)}@example-institute-of-health.com`,
    });
    await factory.course({
      courseName: `Advanced Certificate in Clinical Counselling and Psychotherapy ${tag}`,
      category: `Counselling, Psychotherapy and Mental Health ${tag}`,
    });
    const screens = await adminScreens();
    const page = await browser.newPage({ viewport: DESKTOP });
    await signIn(page, accounts().superadmin);
    expect(await walkScreens(page, screens, problemsOf)).toEqual([]);
  }, 300_000);
});
