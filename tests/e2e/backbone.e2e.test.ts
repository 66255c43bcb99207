import { describe, expect, test } from 'vitest';
import { accounts, expectGone, expectToast, factory, signIn, unique, useBrowser } from './helpers';

const browser = useBrowser();

describe('sign-in and the route guard', () => {
  test('signing in lands on the dashboard and keeps no token in storage', async () => {
    const page = await browser.newPage();
    await signIn(page, accounts().superadmin);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    await page.getByText(/© 2025 .+ All Rights Reserved/).waitFor();
    await page.getByRole('link', { name: 'Privacy Policy' }).waitFor();
    await page.getByRole('link', { name: 'Terms of Service' }).waitFor();

    const stored = JSON.parse((await page.evaluate(() => localStorage.getItem('userInfo'))) ?? 'null');
    expect(stored).toMatchObject({ email: accounts().superadmin.email, role: 'superadmin' });
    expect(stored).not.toHaveProperty('token');
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('light');
  });

  test('wrong credentials show the documented message and stay on /login', async () => {
    const page = await browser.newPage();
    await page.goto('/login');
    await page.getByLabel('Email').fill('nobody-here@example.com');
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'Invalid email or password. Please try again.' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
  });

  test('an unsigned visit to /branch goes to /login, and signing in returns there', async () => {
    const page = await browser.newPage();
    await page.goto('/branch');
    await page.waitForURL((url) => url.pathname === '/login');
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/branch');
    await page.getByLabel('Email').fill(accounts().admin.email);
    await page.getByLabel('Password').fill(accounts().admin.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.pathname === '/branch');
    await page.getByRole('heading', { name: 'Branches' }).waitFor();
  });

  test('a signed-in customer lands on the portal, never the back office, and can sign out', async () => {
    const page = await browser.newPage();
    await signIn(page, accounts().customer);
    await page.waitForURL((url) => url.pathname === '/portal');
    await page.getByRole('heading', { name: 'Next payment' }).waitFor();
    expect(await page.getByTestId('sidebar').count()).toBe(0);
    // A back-office path sends the person to the portal, never round a loop through /login.
    await page.goto('/branch');
    await page.waitForURL((url) => url.pathname === '/portal');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL((url) => url.pathname === '/portal/sign-in');
    expect(await page.evaluate(() => localStorage.getItem('userInfo'))).toBeNull();
  });

  test('logout from the profile menu ends the session', async () => {
    const page = await browser.newPage();
    await signIn(page, accounts().admin);
    await page.getByRole('button', { name: 'Profile menu' }).hover();
    const menu = page.getByRole('menu', { name: 'Profile' });
    await menu.getByRole('menuitem', { name: 'My Profile' }).waitFor();
    // No picture yet: the default picture is shown.
    expect(await page.getByTestId('profile-picture').first().getAttribute('src')).toBe('/default-avatar.svg');
    await menu.getByRole('menuitem', { name: 'Logout' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    await page.goto('/branch');
    await page.waitForURL((url) => url.pathname === '/login');
  });

  test('an unknown path shows the unexpected-error page', async () => {
    const page = await browser.newPage();
    await signIn(page, accounts().admin);
    await page.goto('/no-such-page');
    await page.getByText('Unexpected Application Error!').waitFor();
  });
});

describe('branches through the screens', () => {
  test('add, edit and delete a branch', async () => {
    const page = await browser.newPage();
    await signIn(page, accounts().superadmin);
    const name = unique('E2E Branch');

    await page.goto('/branch/add-branch');
    await page.getByRole('heading', { name: 'Add New Branch' }).waitFor();
    await page.getByRole('button', { name: 'Add Branch' }).click();
    await page.getByRole('alert').filter({ hasText: 'Please fill all the required fields.' }).waitFor();

    await page.getByLabel('Branch Name').fill(name);
    await page.getByLabel('Location').fill('Main Street 12, Matara');
    await page.getByRole('button', { name: 'Add Branch' }).click();
    await expectToast(page, 'Branch added successfully!');
    await page.waitForURL((url) => url.pathname === '/branch');

    await page.getByRole('searchbox', { name: 'Search branches' }).fill(name);
    // As a user does, wait for the filtered list before acting on a row, so the search's own
    // refetch does not land in the middle of the edit.
    await page.waitForURL((url) => url.searchParams.get('q') === name);
    const found = page.getByTestId('branch-row').filter({ hasText: name });
    await found.waitFor();
    expect(await found.textContent()).toContain('Main Street 12, Matara');
    // While editing, the name is an input's value: follow the row by its id.
    const row = page.locator(`[data-branch-id="${await found.getAttribute('data-branch-id')}"]`);

    await row.getByRole('button', { name: `Edit ${name}` }).click();
    // The row is read by the branch schema before it is sent: a blank location is refused.
    await row.getByLabel('Location').fill('   ');
    await row.getByRole('button', { name: 'Save' }).click();
    await expectToast(page, 'Please fill all the required fields.');
    await row.getByLabel('Location').fill('Beach Road 3, Matara');
    await row.getByRole('button', { name: 'Save' }).click();
    await expectToast(page, 'Branch updated successfully!');
    await row.getByText('Beach Road 3, Matara').waitFor();

    await row.getByRole('button', { name: `Delete ${name}` }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByText('Confirm Deletion').waitFor();
    expect(await dialog.textContent()).toContain(name);
    expect(await dialog.textContent()).toContain('This action cannot be undone.');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expectToast(page, 'Branch deleted successfully!');
    await expectGone(row);
  });

  test('a duplicate name and a branch with users show the server message', async () => {
    const existing = await factory.branch();
    const page = await browser.newPage();
    await signIn(page, accounts().admin);

    await page.goto('/branch/add-branch');
    await page.getByLabel('Branch Name').fill(existing.name);
    await page.getByLabel('Location').fill('Anywhere');
    await page.getByRole('button', { name: 'Add Branch' }).click();
    await page.getByRole('alert').filter({ hasText: 'A branch with this name already exists.' }).waitFor();

    // The demo branch Kandy has users (seed): deletion is refused with the count.
    await page.goto('/branch?q=Kandy');
    const row = page.getByTestId('branch-row').filter({ hasText: 'Kandy' }).first();
    await row.getByRole('button', { name: /^Delete/ }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await expectToast(page, /This branch has \d+ users?/);
    await row.waitFor();
  });

  test('a manager sees the list without actions and no Add sub-links', async () => {
    const page = await browser.newPage();
    await signIn(page, accounts().manager);
    await page.goto('/branch');
    await page.getByTestId('branch-row').first().waitFor();
    expect(await page.getByRole('button', { name: /^Edit / }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Delete / }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Add Branch' }).count()).toBe(0);

    const sidebar = page.getByTestId('sidebar');
    for (const group of ['Courses', 'Branch', 'Users', 'Treatment']) {
      await sidebar.getByRole('link', { name: group, exact: true }).click();
    }
    for (const label of [
      'Add Courses',
      'Enroll Course',
      'All Enroll',
      'Add Branch',
      'Add User',
      'Add treatment',
      'Book treatment',
      'All Book Treatment',
    ]) {
      expect(await sidebar.getByRole('link', { name: label, exact: true }).count(), label).toBe(0);
    }
    await sidebar.getByRole('link', { name: 'Dashboard' }).waitFor();
    await sidebar.getByRole('link', { name: 'Reports' }).waitFor();

    await page.goto('/branch/add-branch');
    await page.getByText('You do not have permission to access this page.').waitFor();
  });

  test('an admin sees the sub-links when a group is expanded', async () => {
    const page = await browser.newPage();
    await signIn(page, accounts().admin);
    const sidebar = page.getByTestId('sidebar');
    await sidebar.getByRole('link', { name: 'Courses', exact: true }).click();
    for (const label of ['Add Courses', 'Enroll Course', 'All Enroll'])
      await sidebar.getByRole('link', { name: label, exact: true }).waitFor();
    await sidebar.getByRole('link', { name: 'Treatment', exact: true }).click();
    for (const label of ['Add treatment', 'Book treatment', 'All Book Treatment'])
      await sidebar.getByRole('link', { name: label, exact: true }).waitFor();
    await sidebar.getByRole('link', { name: 'Branch', exact: true }).click();
    await sidebar.getByRole('link', { name: 'Add Branch' }).click();
    await page.waitForURL((url) => url.pathname === '/branch/add-branch');
  });
});

describe('the sidebar', () => {
  test('collapses by the toggle at desktop width (240 -> 70 px) and hides sub-menus', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await signIn(page, accounts().admin);
    const sidebar = page.getByTestId('sidebar');
    expect((await sidebar.boundingBox())?.width).toBe(240);
    expect(await sidebar.getAttribute('data-collapsed')).toBe('false');
    expect((await page.getByTestId('header').boundingBox())?.height).toBe(60);

    await page.getByRole('button', { name: 'Toggle sidebar' }).click();
    await page.waitForFunction(
      () => document.querySelector('[data-testid=sidebar]')?.getBoundingClientRect().width === 70,
    );
    expect(await sidebar.getAttribute('data-collapsed')).toBe('true');
    await sidebar.getByRole('link', { name: 'Branch' }).click();
    expect(await sidebar.getByRole('link', { name: 'Add Branch' }).count()).toBe(0);
    // The content follows the sidebar.
    expect((await page.getByTestId('main').boundingBox())?.x).toBe(70);

    await page.getByRole('button', { name: 'Toggle sidebar' }).click();
    await page.waitForFunction(
      () => document.querySelector('[data-testid=sidebar]')?.getBoundingClientRect().width === 240,
    );
  });

  test('below 768 px it starts off-canvas, opens with the toggle and closes on an outside click', async () => {
    const page = await browser.newPage({ viewport: { width: 600, height: 800 } });
    await signIn(page, accounts().admin);
    const sidebar = page.getByTestId('sidebar');
    const offCanvas = () =>
      page.waitForFunction(
        () => (document.querySelector('[data-testid=sidebar]')?.getBoundingClientRect().right ?? 1) <= 0,
      );
    expect(await sidebar.getAttribute('data-collapsed')).toBe('true');
    await offCanvas();

    await page.getByRole('button', { name: 'Toggle sidebar' }).click();
    await page.waitForFunction(
      () => document.querySelector('[data-testid=sidebar]')?.getBoundingClientRect().left === 0,
    );
    expect((await sidebar.boundingBox())?.width).toBe(240);

    await page.mouse.click(500, 400);
    await offCanvas();
    expect(await sidebar.getAttribute('data-collapsed')).toBe('true');
  });
});
