import { randomInt } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import {
  accounts,
  api,
  expectToast,
  factory,
  pageOverflow,
  settle,
  signIn,
  tokenFor,
  unique,
  useBrowser,
} from './helpers';

const browser = useBrowser();
const slug = (prefix: string) => unique(prefix).replace(/\s+/g, '_').toLowerCase();

/** A man born on 1992-02-15 (day 046) in the old NIC form, serial digits random so reruns do not clash. */
const nicOf = () => `92046${String(randomInt(0, 10_000)).padStart(4, '0')}V`;
const mobile = () => `077${String(randomInt(0, 10_000_000)).padStart(7, '0')}`;
const local = (m: string) => `${m.slice(0, 3)} ${m.slice(3, 6)} ${m.slice(6)}`;

describe.each([
  { width: 1360, height: 900 },
  { width: 390, height: 844 },
])('personal details at $width px', (viewport) => {
  test('Add User takes phone, NIC and an emergency contact; user details show them and edit them', async () => {
    const page = await browser.newPage({ viewport });
    await signIn(page, accounts().admin);
    await page.goto('/users/add-user');
    await page.getByRole('heading', { name: 'Add New User' }).waitFor();
    const branch = page.getByLabel('Branch');
    await branch.locator('option').nth(1).waitFor({ state: 'attached' });
    await branch.selectOption({ index: 1 });
    const username = slug('person');
    const phone = mobile();
    const nic = nicOf();
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Full Name').fill('Nimali Fernando');
    await page.getByLabel('Email').fill(`${username}@example.com`);
    await page.getByLabel('Password').fill('added-password-1');
    await page.getByLabel('Phone', { exact: true }).fill(phone);
    await page.getByLabel('NIC').fill('12345');
    await page.getByLabel('Date of birth').fill('1992-02-15');
    await page.getByLabel('Gender').selectOption('male');
    await page.getByLabel('Contact name').fill('Sunethra Fernando');
    await page.getByLabel('Relation').fill('Mother');
    await page.getByLabel('Contact phone').fill('0112223333');
    expect(await pageOverflow(page)).toBe(0);
    // A malformed NIC is refused on the screen with its message, before anything is sent.
    await page.getByRole('button', { name: 'Add User' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'NIC must be 9 digits followed by V or X, or 12 digits.' })
      .waitFor();
    await page.getByLabel('NIC').fill(nic.toLowerCase());
    await page.getByRole('button', { name: 'Add User' }).click();
    await expectToast(page, 'User added successfully!');
    await page.waitForURL((url) => url.pathname === '/users');

    // The server keeps the phones in E.164.
    const token = await tokenFor(accounts().admin);
    const { body: all } = await api<Array<{ _id: string; username: string; phone: string; nic: string }>>(
      'GET',
      '/api/users',
      { token },
    );
    const saved = all.find((u) => u.username === username);
    expect(saved).toMatchObject({ phone: `+94${phone.slice(1)}`, nic });

    await page.goto(`/users/${saved!._id}`);
    await expect.poll(() => page.getByTestId('user-phone').textContent()).toBe(local(phone));
    await expect(page.getByTestId('user-nic').textContent()).resolves.toBe(nic);
    await expect(page.getByTestId('user-emergency-contact').textContent()).resolves.toBe(
      'Sunethra Fernando (Mother) · 0112 223 333',
    );
    await settle(page);
    expect(await pageOverflow(page)).toBe(0);

    // Edited in the details: a new phone in the international form is shown in the local one.
    await page.getByRole('button', { name: 'Edit details' }).click();
    await expect(page.getByLabel('Phone', { exact: true }).inputValue()).resolves.toBe(local(phone));
    const next = mobile();
    await page.getByLabel('Phone', { exact: true }).fill(`+94 ${next.slice(1)}`);
    await page.getByLabel('Relation').fill('Guardian');
    expect(await pageOverflow(page)).toBe(0);
    await page.getByRole('button', { name: 'Save details' }).click();
    await expectToast(page, 'User updated successfully!');
    await expect.poll(() => page.getByTestId('user-phone').textContent()).toBe(local(next));
    await expect
      .poll(() => page.getByTestId('user-emergency-contact').textContent())
      .toBe('Sunethra Fernando (Guardian) · 0112 223 333');
  });
});

describe.each([
  { width: 1360, height: 900 },
  { width: 390, height: 844 },
])('people named on the lists at $width px', (viewport) => {
  test('bookings and enrolments show the full name beside the e-mail or username, and a long one fits', async () => {
    const token = await tokenFor(accounts().admin);
    const tag = slug('longname');
    // A long name and a long address: they wrap inside their column rather than widen the page.
    const fullName = `Wickramasinghe Arachchige Dona Kumudini ${tag.slice(-6)}`;
    const email = `${tag}.with.a.very.long.mailbox.name@example-institute.lk`;
    const person = await api<{ _id: string; username: string }>('POST', '/api/users', {
      token,
      body: {
        username: tag,
        fullName,
        email,
        password: 'long-enough-pw',
        role: 'student',
        branch: (await factory.branch())._id,
      },
    });
    expect(person.status, JSON.stringify(person.body)).toBe(201);
    const course = await factory.course({ courseName: unique('Named Course') });
    await factory.enrollment(course._id, 'full', email);
    const treatment = await api<{ _id: string }>('POST', '/api/treatments', {
      token,
      body: {
        treatmentName: unique('Named Treatment'),
        localPrice: 1000,
        foreignPrice: 10,
        maxSessions: 2,
        installments: 1,
      },
    });
    expect(treatment.status).toBe(201);
    const booking = await api('POST', '/api/bookings/book', {
      token,
      body: { treatmentId: treatment.body._id, userId: person.body._id, userType: 'local', paymentType: 'full' },
    });
    expect(booking.status, JSON.stringify(booking.body)).toBe(201);

    const page = await browser.newPage({ viewport });
    await signIn(page, accounts().admin);

    // All Treatment Bookings: Customer Name keeps the e-mail, the name beside it.
    await page.goto('/treatment/all-book');
    await page.getByLabel('Search bookings').fill(email);
    const bookingRow = page.getByTestId('booking-row').filter({ hasText: email });
    await bookingRow.getByText(fullName).waitFor();
    await settle(page);
    expect(await pageOverflow(page)).toBe(0);

    // All enrolments: the name, with the username beside it and the e-mail below.
    await page.goto('/courses/AllStudentEnrollments');
    await page.getByLabel('Search enrollments').fill(course.courseName);
    const enrolmentRow = page.getByRole('row').filter({ hasText: course.courseName });
    await enrolmentRow.getByText(fullName).waitFor();
    await enrolmentRow.getByText(tag, { exact: true }).waitFor();
    await enrolmentRow.getByText(email).waitFor();
    await settle(page);
    expect(await pageOverflow(page)).toBe(0);
  });
});
