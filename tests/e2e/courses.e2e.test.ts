import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import {
  accounts,
  api,
  dismissToasts,
  expectGone,
  expectToast,
  factory,
  signIn,
  tokenFor,
  unique,
  useBrowser,
} from './helpers';

const browser = useBrowser();

async function statistic(page: Page, testId: string): Promise<number> {
  const el = page.getByTestId(testId);
  await el.waitFor();
  return Number((await el.innerText()).replace(/,/g, ''));
}

describe('courses', () => {
  test('adds a course, edits it inline and deletes it after confirmation', async () => {
    const page = await browser.newPage();
    await signIn(page, accounts().admin);
    const name = unique('Diploma in Phlebotomy');

    await page.goto('/courses/add-courses');
    await page.getByRole('button', { name: 'Add Course' }).click();
    await page.getByRole('alert').filter({ hasText: 'Please fill all the required fields.' }).waitFor();

    await page.getByLabel('Course Name').fill(name);
    await page.getByLabel('Duration').fill('4 months');
    await page.getByLabel('Category').fill('Health Care');
    await page.getByLabel('Total Fee (Rs.)').fill('125000');
    await page.getByLabel('Admission Fee (Rs.)').fill('2500');
    await page.getByLabel('Installments').fill('3');
    await page.getByRole('button', { name: 'Add Course' }).click();
    await expectToast(page, 'Course added successfully!');
    await page.waitForURL((url) => url.pathname === '/courses');

    await page.getByLabel('Search courses').fill(name);
    await page.waitForURL((url) => url.searchParams.get('q') === name);
    await page.getByTestId('course-row').filter({ hasText: name }).waitFor();
    // While editing, the name sits in an input (not text): hold on to the row by its id.
    const id = await page.getByTestId('course-row').filter({ hasText: name }).getAttribute('data-course-id');
    const row = page.locator(`[data-course-id="${id}"]`);
    await row.getByText('Rs. 125,000.00').waitFor();
    await row.getByText('Rs. 2,500.00').waitFor();

    await row.getByRole('button', { name: `Edit ${name}` }).click();
    // The row is read by the course schema before it is sent: a blank fee is refused with its message.
    await row.getByLabel('Total Fee').fill('');
    await row.getByRole('button', { name: 'Save' }).click();
    await expectToast(page, 'Please fill all the required fields.');
    await row.getByLabel('Total Fee').fill('130500.5');
    await row.getByRole('button', { name: 'Save' }).click();
    await expectToast(page, 'Course updated successfully!');
    await row.getByText('Rs. 130,500.50').waitFor();

    await row.getByRole('button', { name: `Delete ${name}` }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByText(name).waitFor();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expectToast(page, 'Course deleted successfully!');
    await expectGone(page.getByTestId('course-row').filter({ hasText: name }));
  });
});

describe('enrolments', () => {
  test('enrols a student by email in another case with spaces, then pays and completes on the detail screen', async () => {
    const courseName = unique('Certificate in First Aid');
    const course = await factory.course({
      courseName,
      duration: '2 months',
      totalFee: 64150,
      installments: 2,
      category: 'Health Care',
      admissionFee: 1000,
    });

    const page = await browser.newPage();
    await signIn(page, accounts().admin);
    await page.goto('/courses/AllStudentEnrollments');
    const totalBefore = await statistic(page, 'stat-total');
    const completedBefore = await statistic(page, 'stat-completed');

    await page.goto('/courses/enrollment');
    await page.getByRole('button', { name: 'Enroll Student' }).click();
    await page.getByRole('alert').filter({ hasText: 'Please enter a valid email and select a course.' }).waitFor();
    await page.getByLabel('User Email').fill('  nobody-at-all@Example.com ');
    await page.locator('#enroll-course').selectOption({ label: courseName });
    expect(await page.locator('#enroll-payment-type').inputValue()).toBe('full');
    await page.getByRole('button', { name: 'Enroll Student' }).click();
    await page.getByRole('alert').filter({ hasText: 'User not found. Please check the email.' }).waitFor();

    await page.getByLabel('User Email').fill('  STUDENT2@Example.COM  ');
    await page.getByRole('button', { name: 'Enroll Student' }).click();
    await expectToast(page, 'Student enrolled successfully!');
    expect(new URL(page.url()).pathname).toBe('/courses/enrollment');

    await page.goto('/courses/AllStudentEnrollments');
    await expect.poll(() => statistic(page, 'stat-total')).toBe(totalBefore + 1);
    await page.getByLabel('Search enrollments').fill(courseName);
    // The search settles into the URL; leaving before that would be undone by it.
    await page.waitForURL((url) => url.searchParams.get('q') === courseName);
    const row = page.getByTestId('enrollment-row').filter({ hasText: courseName });
    await row.getByText('Pending Payment').waitFor();
    await row.getByText('student2@example.com').waitFor();
    // The link reads the student's full name with the username beside it.
    await row.getByRole('link', { name: /^(?!View ).* student2$/ }).click();
    await page.waitForURL((url) => /^\/courses\/[0-9a-f-]{36}\/enrollment\/[0-9a-f-]{36}$/.test(url.pathname));
    expect(page.url()).toContain(`/courses/${course._id}/enrollment/`);

    await page.getByRole('heading', { name: 'Student Enrollment Details' }).waitFor();
    await page.getByTestId('total-fee').getByText('Rs. 64,150.00').waitFor();
    // 64150 / 320.75 = 200.00 at the default exchange rate.
    await page.getByTestId('total-fee-usd').getByText('$ 200.00').waitFor();
    await page.getByRole('columnheader', { name: 'Amount (LKR)' }).waitFor();

    const installment = page.getByTestId('installment-row').first();
    // Mark as Paid opens Record payment for the installment; Mark as Unpaid confirms what it voids.
    const markPaid = async () => {
      await installment.getByRole('button', { name: 'Mark as Paid' }).click();
      const dialog = page.getByRole('dialog', { name: 'Record payment' });
      await dialog.getByLabel('Method').selectOption('cash');
      await dialog.getByRole('button', { name: 'Record payment' }).click();
      await expectToast(page, /Payment recorded: receipt /);
    };
    await markPaid();
    await installment.getByTestId('installment-state').getByText('Paid').waitFor();
    await page.getByTestId('display-status').getByText('Active (Partial)').waitFor();

    await installment.getByRole('button', { name: 'Mark as Unpaid' }).click();
    await page
      .getByTestId('unmark-description')
      .getByText(/This voids receipt /)
      .waitFor();
    await page.getByRole('button', { name: 'Void and mark unpaid' }).click();
    await installment.getByTestId('installment-state').getByText('Pending').waitFor();
    await page.getByTestId('display-status').getByText('Pending Payment').waitFor();
    await markPaid();
    await installment.getByTestId('installment-state').getByText('Paid').waitFor();

    // The admission fee's switch acts as the installments' do: Record payment for the fee, and a
    // confirmation naming the receipt it voids.
    const markFeePaid = async () => {
      await page.getByRole('button', { name: 'Mark Admission Fee as Paid' }).click();
      const dialog = page.getByRole('dialog', { name: 'Record payment' });
      await dialog.getByText('Admission fee: Rs. 1,000.00 outstanding.', { exact: false }).waitFor();
      expect(await dialog.getByLabel('Amount (LKR)').inputValue()).toBe('1000');
      await dialog.getByLabel('Method').selectOption('card');
      await dialog.getByRole('button', { name: 'Record payment' }).click();
      await expectToast(page, /Payment recorded: receipt /);
      await page.getByTestId('admission-fee-state').getByText('Paid').waitFor();
    };
    await markFeePaid();
    await page.getByTestId('display-status').getByText('Active (Paid)').waitFor();
    await page.getByRole('button', { name: 'Mark Admission Fee as Unpaid' }).click();
    const ask = page.getByRole('alertdialog', { name: 'Mark Admission Fee as Unpaid?' });
    await ask
      .getByTestId('unmark-description')
      .getByText(/This voids receipt \S+ \(Rs\. 1,000\.00\)/)
      .waitFor();
    // Cancel changes nothing.
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await ask.waitFor({ state: 'hidden' });
    await page.getByTestId('admission-fee-state').getByText('Paid').waitFor();
    await page.getByRole('button', { name: 'Mark Admission Fee as Unpaid' }).click();
    await ask.getByRole('button', { name: 'Void and mark unpaid' }).click();
    await page.getByTestId('admission-fee-state').getByText('Unpaid').waitFor();
    await page.getByTestId('display-status').getByText('Active (Partial)').waitFor();
    await markFeePaid();
    await page.getByTestId('display-status').getByText('Active (Paid)').waitFor();
    await page.getByRole('button', { name: 'Mark as Completed' }).click();
    await page.getByTestId('display-status').getByText('Completed').waitFor();

    await dismissToasts(page);
    await page.getByRole('link', { name: 'All Enrollments' }).click();
    await expect.poll(() => statistic(page, 'stat-completed')).toBe(completedBefore + 1);
  });

  test('a manager sees the detail but no payment toggles', async () => {
    const token = await tokenFor(accounts().admin);
    const list = await api<{ data: Array<{ _id: string; courseId: { _id: string } | null }> }>(
      'GET',
      '/api/enrollments',
      { token },
    );
    const e = list.body.data.find((x) => x.courseId);
    expect(e).toBeDefined();
    const page = await browser.newPage();
    await signIn(page, accounts().manager);
    await page.goto(`/courses/${e!.courseId!._id}/enrollment/${e!._id}`);
    await page.getByTestId('installment-row').first().waitFor();
    expect(await page.getByRole('button', { name: /Mark as (Paid|Unpaid)/ }).count()).toBe(0);
  });
});
