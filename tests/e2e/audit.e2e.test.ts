import { describe, expect, test } from 'vitest';
import { accounts, api, expectToast, signIn, tokenFor, unique, useBrowser } from './helpers';

const browser = useBrowser();

async function newStudent(): Promise<{ id: string; username: string }> {
  const token = await tokenFor(accounts().superadmin);
  const { body: branches } = await api<{ branches: Array<{ _id: string }> }>('GET', '/api/branch', { token });
  const username = unique('audited').replace(/\s+/g, '_').toLowerCase();
  const res = await api<{ _id: string }>('POST', '/api/users', {
    token,
    body: {
      username,
      fullName: 'Audited In Browser',
      email: `${username}@example.com`,
      password: 'audited-password-1',
      role: 'student',
      branch: branches.branches[0]!._id,
    },
  });
  if (res.status !== 201) throw new Error(`creating a user failed: ${res.status}`);
  return { id: res.body._id, username };
}

describe('audit log', () => {
  test("an admin changes a user's role and finds it in the Audit log and on the user's History", async () => {
    const student = await newStudent();
    const summary = `Changed the role of ${student.username} from Student to Manager`;
    const page = await browser.newPage();
    await signIn(page, accounts().admin);

    await page.goto('/users');
    await page.getByLabel('Search users').fill(student.username);
    const row = page.getByTestId('user-row').filter({ hasText: student.username });
    await row.getByRole('button', { name: `Edit ${student.username}` }).click();
    await row.getByLabel('Role').selectOption('manager');
    await row.getByRole('button', { name: 'Save' }).click();
    await expectToast(page, 'User updated successfully!');
    await expect.poll(() => row.getByTestId('user-role').textContent()).toBe('Manager');

    // The Audit log, from the sidebar, filtered to role changes and this user's name.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('heading', { name: 'Audit log' }).waitFor();
    await page.getByLabel('Action').selectOption('role_change');
    await page.getByLabel('Search the summary').fill(student.username);
    const entry = page.getByTestId('audit-row').filter({ hasText: summary });
    await entry.waitFor();
    // Other tests change roles too: once the search applies, only this one is left.
    await expect.poll(() => page.getByTestId('audit-row').count()).toBe(1);
    await expect(entry.getByTestId('audit-action').textContent()).resolves.toBe('Role change');
    await entry.getByText('admin.colombo').waitFor();
    await entry.getByRole('button', { name: 'Show the changes' }).click();
    const change = page.getByTestId('audit-details').getByTestId('audit-change');
    await change.first().waitFor();
    await expect(change.allTextContents()).resolves.toEqual(['rolestudentmanager']);
    expect(new URL(page.url()).searchParams.get('action')).toBe('role_change');

    // The user's details, from the entry's record link, show the same change in their History.
    await entry.getByRole('link', { name: 'User' }).click();
    await page.waitForURL((url) => url.pathname === `/users/${student.id}`);
    await expect(page.getByTestId('user-role').textContent()).resolves.toBe('Manager');
    const history = page.getByTestId('history-panel');
    const item = history.getByTestId('history-entry').filter({ hasText: summary });
    await item.waitFor();
    await item.getByRole('button', { name: 'Show the changes' }).click();
    await item.getByTestId('audit-change').first().waitFor();
    await expect(item.getByTestId('audit-change').allTextContents()).resolves.toEqual(['rolestudentmanager']);
    // The creation is there too, older, below it.
    await history
      .getByTestId('history-entry')
      .filter({ hasText: `Created user ${student.username}` })
      .waitFor();
  });

  test('a manager has no Audit log link, and the screen refuses them', async () => {
    const page = await browser.newPage();
    await signIn(page, accounts().manager);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' }).waitFor();
    await expect(
      page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit log' }).count(),
    ).resolves.toBe(0);
    await page.goto('/audit');
    await page.getByTestId('permission-denied').waitFor();
  });
});
