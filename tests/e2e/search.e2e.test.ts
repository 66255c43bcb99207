import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { accounts, factory, pageOverflow, signIn, unique, useBrowser } from './helpers';

const browser = useBrowser();

const DESKTOP = { width: 1360, height: 900 };
const PHONE = { width: 390, height: 844 };

const searchBox = (page: Page) => page.getByRole('combobox', { name: 'Search everything' });

/** Ctrl+K from wherever the focus is, the text typed, the first hit chosen with the arrow, then Enter. */
async function openFirstHit(page: Page, text: string, firstTitle: string) {
  await searchBox(page).waitFor();
  await page.getByRole('heading', { name: 'Dashboard' }).click();
  await page.keyboard.press('Control+k');
  await expect.poll(() => searchBox(page).evaluate((el) => el === document.activeElement)).toBe(true);
  await page.keyboard.type(text);
  const list = page.getByRole('listbox', { name: 'Search results' });
  const first = list.getByRole('option').first();
  await expect.poll(() => first.textContent(), { timeout: 10_000 }).toContain(firstTitle);
  expect(await searchBox(page).getAttribute('aria-expanded')).toBe('true');
  await page.keyboard.press('ArrowDown');
  expect(await first.getAttribute('aria-selected')).toBe('true');
  expect(await searchBox(page).getAttribute('aria-activedescendant')).toBe(await first.getAttribute('id'));
  return first;
}

describe.each([
  ['desktop', DESKTOP],
  ['phone', PHONE],
])('the header search at %s width', (_name, viewport) => {
  test('Ctrl+K, type, arrow down and Enter open the person found', async () => {
    const name = unique('Searchable Person');
    const student = await factory.student({ fullName: name });
    const page = await browser.newPage({ viewport });
    await signIn(page, accounts().admin);

    const first = await openFirstHit(page, name, name);
    expect(await first.textContent()).toContain(student.username);
    expect(await first.textContent()).toContain('Person');
    // The open list sticks out of neither side of the window.
    expect(await pageOverflow(page)).toBe(0);
    const box = await page.getByTestId('global-search-results').boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= viewport.width).toBe(true);

    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === `/users/${student._id}`);
    await page.getByText(name).first().waitFor();
    expect(await searchBox(page).inputValue()).toBe('');
  });

  test('"/" focuses the search, Escape closes the list, and a course opens its screen', async () => {
    const course = await factory.course({ courseName: unique('Searchable Course') });
    const page = await browser.newPage({ viewport });
    await signIn(page, accounts().admin);
    await searchBox(page).waitFor();
    await page.getByRole('heading', { name: 'Dashboard' }).click();
    await page.keyboard.press('/');
    await expect.poll(() => searchBox(page).evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type(course.courseName);
    const option = page.getByRole('option', { name: new RegExp(course.courseName) });
    await option.waitFor();
    await page.keyboard.press('Escape');
    await option.waitFor({ state: 'hidden' });
    expect(await searchBox(page).getAttribute('aria-expanded')).toBe('false');
    await page.keyboard.press('ArrowDown');
    await option.waitFor();
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === `/courses/${course._id}`);
  });
});

test('one character asks for more, and nothing found says so', async () => {
  const page = await browser.newPage({ viewport: DESKTOP });
  await signIn(page, accounts().admin);
  await searchBox(page).click();
  await page.keyboard.type('q');
  expect(await searchBox(page).getAttribute('aria-expanded')).toBe('false');
  await page.keyboard.type('zxqzxq');
  await page.getByText('No matches for “qzxqzxq”.').first().waitFor();
});
