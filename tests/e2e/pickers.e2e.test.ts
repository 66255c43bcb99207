import { describe, expect, test } from 'vitest';
import { addToDate, todayIn } from '../../src/shared/calendar';
import { formatDay } from '../../src/shared/format';
import { accounts, expectToast, factory, signIn, unique, useBrowser } from './helpers';

const browser = useBrowser();
const TZ = 'Asia/Colombo';

describe('pickers', () => {
  test('a student is found by typing part of their name, picked with the keyboard, and enrolled', async () => {
    const branch = await factory.branch();
    const tag = unique('Picker').replace(/\W/g, '');
    const email = `${tag.toLowerCase()}@example.com`;
    await factory.student({ username: tag, fullName: `Nirmala ${tag} Fernando`, email, branch: branch._id });
    const courseName = unique('Certificate in Pickers');
    await factory.course({ courseName, category: 'Pickers' });

    const page = await browser.newPage();
    await signIn(page, accounts().admin);
    await page.goto('/courses/enrollment');
    const box = page.getByRole('combobox', { name: 'User Email' });
    await box.fill(`nirmala ${tag.slice(0, 9).toLowerCase()}`);
    const option = page.getByRole('option', { name: new RegExp(`Nirmala ${tag} Fernando`) });
    await option.waitFor();
    expect(await box.getAttribute('aria-expanded')).toBe('true');
    await box.press('ArrowDown');
    expect(await option.getAttribute('aria-selected')).toBe('true');
    await box.press('Enter');
    expect(await box.inputValue()).toBe(email);
    expect(await box.getAttribute('aria-expanded')).toBe('false');

    // Escape closes the suggestions without choosing.
    await box.fill(tag.slice(-6));
    await option.waitFor();
    await box.press('Escape');
    await option.waitFor({ state: 'hidden' });
    await box.fill(email);

    await page.locator('#enroll-course').selectOption({ label: courseName });
    await page.getByRole('button', { name: 'Enroll Student' }).click();
    await expectToast(page, 'Student enrolled successfully!');
  });

  test('a payment date is picked with the keyboard and shown as the product writes days', async () => {
    const course = await factory.course({ courseName: unique('Certificate in Dates') });
    const enrolment = await factory.enrollment(course._id, 'installment');

    const page = await browser.newPage();
    await signIn(page, accounts().admin);
    await page.goto(`/courses/${course._id}/enrollment/${enrolment._id}`);
    await page.getByTestId('payments-panel').getByRole('button', { name: 'Record payment' }).click();
    const dialog = page.getByRole('dialog', { name: 'Record payment' });
    // The dialog's day is the organisation's (TIME_ZONE), not the browser's: they differ around midnight.
    const today = todayIn(TZ);
    const yesterday = addToDate(today, { days: -1 });
    const picker = dialog.getByRole('button', { name: /^Date:/ });
    expect(await picker.innerText()).toContain(formatDay(today));

    await picker.focus();
    await page.keyboard.press('Enter');
    const grid = page.getByRole('grid');
    await grid.waitFor();
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('Enter');
    await grid.waitFor({ state: 'detached' });
    expect(await picker.innerText()).toContain(formatDay(yesterday));
    expect(await picker.getAttribute('aria-label')).toBe(`Date: ${formatDay(yesterday)}`);
    // A day after today cannot be chosen: the calendar stays on today.
    await picker.press('Enter');
    await grid.waitFor();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Enter');
    expect(await picker.innerText()).toContain(formatDay(today));
  });

  test('a form error shows once, marks every field it concerns, and leaves when a field is edited', async () => {
    const page = await browser.newPage();
    await signIn(page, accounts().admin);
    await page.goto('/courses/add-courses');
    await page.getByRole('button', { name: 'Add Course' }).click();
    const required = page.getByRole('alert').filter({ hasText: 'Please fill all the required fields.' });
    await required.waitFor();
    expect(await required.count()).toBe(1);
    await page.waitForTimeout(500);
    expect(await page.locator('[data-sonner-toast]').filter({ hasText: 'required' }).count()).toBe(0);
    // Five empty required fields (installments defaults to 1), each pointing at the one message.
    const invalid = page.locator('[aria-invalid="true"]');
    expect(await invalid.count()).toBe(5);
    const messageId = await required.getAttribute('id');
    for (const field of await invalid.all()) expect(await field.getAttribute('aria-describedby')).toContain(messageId);
    await page.getByLabel('Course Name').fill('A');
    await required.waitFor({ state: 'detached' });
    expect(await invalid.count()).toBe(0);
  });
});
