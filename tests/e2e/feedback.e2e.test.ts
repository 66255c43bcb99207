import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { accounts, factory, signIn, useBrowser } from './helpers';

const browser = useBrowser();

/** The toasts on screen now whose text contains `text`. */
const toastsWith = (page: Page, text: string) => page.locator('[data-sonner-toast]').filter({ hasText: text });

describe('errors are shown once', () => {
  test('a field error shows under the form only, and leaves when the field is edited', async () => {
    const page = await browser.newPage();
    await signIn(page, accounts().superadmin);
    await page.goto('/branch/add-branch');

    await page.getByRole('button', { name: 'Add Branch' }).click();
    const required = page.getByRole('alert').filter({ hasText: 'Please fill all the required fields.' });
    await required.waitFor();
    // A toast would have appeared with the line; give it the time it takes.
    await page.waitForTimeout(500);
    expect(await toastsWith(page, 'Please fill all the required fields.').count()).toBe(0);

    await page.getByLabel('Branch Name').fill('N');
    await required.waitFor({ state: 'detached' });

    // The server refusing the input (a duplicate name, 409) is a field error too.
    const existing = await factory.branch();
    await page.getByLabel('Branch Name').fill(existing.name);
    await page.getByLabel('Location').fill('Anywhere');
    await page.getByRole('button', { name: 'Add Branch' }).click();
    const duplicate = page.getByRole('alert').filter({ hasText: 'A branch with this name already exists.' });
    await duplicate.waitFor();
    await page.waitForTimeout(500);
    expect(await toastsWith(page, 'already exists').count()).toBe(0);
    await page.getByLabel('Branch Name').fill(`${existing.name} 2`);
    await duplicate.waitFor({ state: 'detached' });
  });

  test('an error no field can fix is a toast, not a line under the form', async () => {
    const page = await browser.newPage();
    await signIn(page, accounts().superadmin);
    await page.goto('/branch/add-branch');
    // The server is unreachable for this one request.
    await page.route('**/trpc/branches.create**', (route) => route.abort('connectionfailed'));
    await page.getByLabel('Branch Name').fill('Unreachable');
    await page.getByLabel('Location').fill('Nowhere');
    await page.getByRole('button', { name: 'Add Branch' }).click();
    await toastsWith(page, 'Failed to add branch. Please try again.').first().waitFor();
    expect(await page.locator('form [role=alert]').count()).toBe(0);
  });

  test('an empty sign-in form is answered on the screen without calling the server', async () => {
    const page = await browser.newPage();
    const signInCalls: string[] = [];
    page.on('request', (req) => {
      if (req.url().includes('auth.login')) signInCalls.push(req.url());
    });
    await page.goto('/login');
    await page.getByRole('button', { name: 'Sign in' }).click();
    const empty = page.getByRole('alert').filter({ hasText: 'Please enter your email and password.' });
    await empty.waitFor();
    await page.getByLabel('Email').fill(accounts().superadmin.email);
    await empty.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Sign in' }).click();
    await empty.waitFor();
    expect(signInCalls).toEqual([]);
    expect(new URL(page.url()).pathname).toBe('/login');
  });
});
