import { afterAll, describe, expect, test } from 'vitest';
import { accounts, api, expectToast, signIn, tokenFor, useBrowser } from './helpers';

const browser = useBrowser();

/** Other screens convert money at this rate: put it back whatever happens here. */
afterAll(async () => {
  const token = await tokenFor(accounts().superadmin);
  const res = await api('POST', '/trpc/settings.updateCurrency', {
    token,
    body: { localCurrency: 'LKR', foreignCurrency: 'USD', exchangeRate: 320.75 },
  });
  if (res.status !== 200) throw new Error(`could not restore the exchange rate: ${res.status}`);
});

describe('Settings', () => {
  test('an admin changes the exchange rate; a bad rate is explained', async () => {
    const page = await browser.newPage();
    await signIn(page, accounts().admin);
    await page.goto('/settings');
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    const rate = page.getByLabel(/Exchange rate/);
    // Other cards (scholarship schemes) have Save buttons of their own.
    const save = page.locator('form').filter({ has: rate }).getByRole('button', { name: 'Save' });
    await expect.poll(() => rate.inputValue()).toBe('320.75');
    expect(await page.getByLabel('Local currency').inputValue()).toBe('LKR');
    expect(await page.getByLabel('Foreign currency').inputValue()).toBe('USD');

    await rate.fill('1.23456');
    await save.click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'Exchange rate must be a number with at most 4 decimal places.' })
      .waitFor();

    await rate.fill('321.5');
    await save.click();
    await expectToast(page, 'Currency settings saved.');
    await page.reload();
    await expect.poll(() => page.getByLabel(/Exchange rate/).inputValue()).toBe('321.5');
  });

  test('an admin sees the background jobs and sends reminders on demand', async () => {
    const page = await browser.newPage();
    await signIn(page, accounts().admin);
    await page.goto('/settings');
    const counts = page.getByTestId('job-counts');
    await counts.waitFor();
    expect(await counts.textContent()).toMatch(/Queued \d+.*Active \d+.*Failed \d+.*Completed \d+/);
    await page.getByRole('button', { name: 'Send reminders now' }).click();
    await expectToast(page, /reminders? queued|No reminders to send/);
    await page.getByRole('tab', { name: 'Failed' }).click();
    await page.getByRole('tab', { name: 'Failed', selected: true }).waitFor();
  });

  test('a manager is told the page is not for them', async () => {
    const page = await browser.newPage();
    await signIn(page, accounts().manager);
    await page.goto('/settings');
    await page.getByTestId('permission-denied').waitFor();
    expect(await page.getByLabel(/Exchange rate/).count()).toBe(0);
  });
});
