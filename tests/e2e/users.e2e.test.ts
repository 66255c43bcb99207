import postgres from 'postgres';
import { afterAll, describe, expect, test } from 'vitest';
import { accounts, api, e2eEnv, expectToast, signIn, tokenFor, unique, useBrowser, type Account } from './helpers';

const browser = useBrowser();

// The outbox is where a developer (and this test) reads emailed codes; a user reads their inbox.
const sql = postgres(e2eEnv().databaseUrl, { max: 1, onnotice: () => {} });
afterAll(() => sql.end({ timeout: 5 }));

// Smallest valid PNG (1x1).
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

const slug = (prefix: string) => unique(prefix).replace(/\s+/g, '_').toLowerCase();

/** A fresh account through the API (demo accounts are shared by other browser tests). */
async function newAccount(role: 'manager' | 'student' | 'customer'): Promise<Account & { username: string }> {
  const token = await tokenFor(accounts().superadmin);
  const { body: branches } = await api<{ branches: Array<{ _id: string }> }>('GET', '/api/branch', { token });
  const username = slug(`e2e_${role}`);
  const account = { email: `${username}@example.com`, password: 'e2e-password-1', username };
  const res = await api('POST', '/api/users', {
    token,
    body: {
      username,
      fullName: `E2E ${role}`,
      email: account.email,
      password: account.password,
      role,
      branch: branches.branches[0]!._id,
    },
  });
  if (res.status !== 201) throw new Error(`creating a user failed: ${res.status} ${JSON.stringify(res.body)}`);
  return account;
}

async function otpFromOutbox(email: string): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const rows = await sql<
      Array<{ text: string }>
    >`select text from email_outbox where "to" = ${email} order by created_at desc limit 1`;
    const code = rows[0] && /\b(\d{6})\b/.exec(rows[0].text)?.[1];
    if (code) return code;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no OTP email to ${email}`);
}

describe('users', () => {
  test('an admin adds a user, then changes their role inline', async () => {
    const page = await browser.newPage();
    await signIn(page, accounts().admin);
    await page.goto('/users/add-user');
    await page.getByRole('heading', { name: 'Add New User' }).waitFor();

    const username = slug('added');
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Full Name').fill('Added By Browser');
    await page.getByLabel('Email').fill(`${username}@example.com`);
    await page.getByLabel('Password').fill('added-password-1');
    // The branch is required.
    await page.getByRole('button', { name: 'Add User' }).click();
    await page.getByRole('alert').filter({ hasText: 'Please select a branch.' }).waitFor();
    // An admin may not grant Super Admin: the option is not offered.
    const roleOptions = await page.getByLabel('Role').locator('option').allTextContents();
    expect(roleOptions).toEqual(['User', 'Student', 'Customer', 'Manager', 'Admin']);
    expect(await page.getByLabel('Role').inputValue()).toBe('user');

    const branch = page.getByLabel('Branch');
    await branch.locator('option').nth(1).waitFor({ state: 'attached' });
    await branch.selectOption({ index: 1 });
    await page.getByRole('button', { name: 'Add User' }).click();
    await expectToast(page, 'User added successfully!');
    await page.waitForURL((url) => url.pathname === '/users');

    await page.getByLabel('Search users').fill(username);
    const row = page.getByTestId('user-row').filter({ hasText: username });
    await row.waitFor();
    await expect(row.getByTestId('user-role').textContent()).resolves.toBe('User');

    await row.getByRole('button', { name: `Edit ${username}` }).click();
    // The row is read by the user schema before it is sent: a blank username is refused with its message.
    await row.getByLabel('Username').fill('');
    await row.getByRole('button', { name: 'Save' }).click();
    await expectToast(page, 'Username is required.');
    await row.getByLabel('Username').fill(username);
    await row.getByLabel('Role').selectOption('student');
    await row.getByRole('button', { name: 'Save' }).click();
    await expectToast(page, 'User updated successfully!');
    await expect.poll(() => row.getByTestId('user-role').textContent()).toBe('Student');

    // The change is on the server, not only on the screen.
    const token = await tokenFor(accounts().admin);
    const { body } = await api<Array<{ username: string; role: string }>>('GET', '/api/users/students', { token });
    expect(body.find((u) => u.username === username)?.role).toBe('student');
  });

  test('a user edits their own profile and uploads a picture that shows in the header', async () => {
    const me = await newAccount('manager');
    const page = await browser.newPage();
    await signIn(page, me);
    await page.goto('/users/profile');
    await page.getByRole('heading', { name: 'Profile' }).waitFor();
    const headerPicture = page.getByTestId('header').getByTestId('profile-picture');
    expect(await headerPicture.getAttribute('src')).toBe('/default-avatar.svg');

    await page.getByRole('button', { name: 'Edit Profile' }).click();
    // Email and branch are read-only.
    await expect(page.getByLabel('Email').isEditable()).resolves.toBe(false);
    await expect(page.getByLabel('Branch').isEditable()).resolves.toBe(false);
    await page.getByLabel('Full Name').fill('Renamed In Browser');
    await page.getByRole('button', { name: 'Show optional details' }).click();
    await page.getByLabel('Phone').fill('+94 77 000 1111');
    await page.getByLabel('Address').fill('12 Temple Road, Kandy');
    await page.getByLabel('Profile picture').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: PNG });
    await page.getByTestId('picture-preview').waitFor();
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expectToast(page, 'Profile updated successfully!');

    await expect.poll(() => headerPicture.getAttribute('src')).toMatch(/^\/api\/files\/[0-9a-f-]{36}\?t=\d+$/);
    await expect
      .poll(() => headerPicture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBe(1);
    await page.getByTestId('header').getByText('Renamed In Browser').waitFor();
    await page.getByText('077 000 1111').waitFor();

    // After a reload the picture is still there (it comes from the server).
    await page.reload();
    await expect
      .poll(() => page.getByTestId('header').getByTestId('profile-picture').getAttribute('src'))
      .toMatch(/^\/api\/files\//);
  });

  test('forgot and reset password end to end, with the code from the outbox', async () => {
    const me = await newAccount('customer');
    const page = await browser.newPage();
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL((url) => url.pathname === '/forgot-password');
    // The URL changes before the lazily loaded page replaces the sign-in form (which also has an
    // Email field): wait for this page's own button first.
    await page.getByRole('button', { name: 'Send OTP' }).waitFor();
    await page.getByLabel('Email').fill(me.email);
    await page.getByRole('button', { name: 'Send OTP' }).click();
    await expectToast(page, 'OTP sent to your email. Please check your inbox.');
    await page.waitForURL((url) => url.pathname === '/reset-password' && url.searchParams.get('email') === me.email);

    await page.getByRole('button', { name: 'Verify OTP' }).click();
    await page.getByRole('alert').filter({ hasText: 'Please enter the OTP.' }).waitFor();
    const code = await otpFromOutbox(me.email);
    const wrong = code === '000000' ? '111111' : '000000';
    await page.getByLabel('OTP').fill(wrong);
    await page.getByRole('button', { name: 'Verify OTP' }).click();
    await page.getByRole('alert').filter({ hasText: 'Invalid OTP. Please try again.' }).waitFor();

    await page.getByLabel('OTP').fill(code);
    await page.getByRole('button', { name: 'Verify OTP' }).click();
    await page.getByLabel('New Password').fill('reset-in-browser-1');
    await page.getByLabel('Confirm Password').fill('something-else-1');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await page.getByRole('alert').filter({ hasText: 'Passwords do not match.' }).waitFor();
    await page.getByLabel('Confirm Password').fill('reset-in-browser-1');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await expectToast(page, 'Password reset successful. Please login with your new password.');
    await page.waitForURL((url) => url.pathname === '/login');

    expect((await api('POST', '/api/users/auth', { body: { email: me.email, password: me.password } })).status).toBe(
      401,
    );
    expect(
      (await api('POST', '/api/users/auth', { body: { email: me.email, password: 'reset-in-browser-1' } })).status,
    ).toBe(200);
  });
});
