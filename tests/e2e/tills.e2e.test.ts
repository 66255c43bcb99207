import { describe, expect, test } from 'vitest';
import { addToDate, todayIn } from '../../src/shared/calendar';
import { formatDay } from '../../src/shared/format';
import {
  accounts,
  expectToast,
  factory,
  otherDayZone,
  pageOverflow,
  settle,
  signIn,
  unique,
  useBrowser,
} from './helpers';

const browser = useBrowser();

/**
 * A till from open to close (docs/payments.md#tills) at desktop and phone width: open it with a
 * float, take a cash payment, close it with a difference (refused without a note, then with one),
 * and find it on the cash-up. Each run has a branch of its own, so closing its day locks no other
 * test's branch.
 */
describe.each([
  ['desktop', { width: 1360, height: 900 }],
  ['phone', { width: 390, height: 844 }],
])('a till at %s width', (_name, viewport) => {
  test('opens with a float, takes cash, and closes with a difference and a note', async () => {
    const branch = await factory.branch({ name: unique('Aaa Till') });
    const student = await factory.student({ branch: branch._id });
    const course = await factory.course({ totalFee: 10000, installments: 1, admissionFee: 0 });
    const enrolment = await factory.enrollment(course._id, 'installment', student.email);

    const page = await browser.newPage({ viewport });
    await signIn(page, accounts().admin);
    await page.goto('/payments');
    const card = page.getByTestId('till-card');
    await card.getByLabel('Branch').selectOption(branch._id);
    await card.getByLabel(/Opening float/).fill('2000');
    await card.getByRole('button', { name: 'Open till' }).click();
    await expectToast(page, 'Till opened.');
    await card.getByTestId('till-expected').getByText('Rs. 2,000.00').waitFor();
    await settle(page);
    expect(await pageOverflow(page)).toBe(0);

    // A cash payment on the enrolment goes into the till.
    await page.goto(`/courses/${course._id}/enrollment/${enrolment._id}`);
    const panel = page.getByTestId('payments-panel');
    await panel.getByRole('button', { name: 'Record payment' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Amount (LKR)').fill('3500');
    await dialog.getByLabel('Method').selectOption('cash');
    await dialog.getByRole('button', { name: 'Record payment' }).click();
    await expectToast(page, /Payment recorded: receipt /);

    await page.goto('/payments');
    await card.getByTestId('till-expected').getByText('Rs. 5,500.00').waitFor();
    await card.getByLabel('Counted (LKR)').fill('5400');
    await card.getByTestId('till-difference').getByText('-Rs. 100.00').waitFor();
    await card.getByRole('button', { name: 'Close till' }).click();
    await expectToast(page, 'The counted cash differs from the expected amount: add a note saying why.');
    expect(await card.getByTestId('open-till').count()).toBe(1);

    await card.getByLabel(/Note/).fill('A note of 100 went missing');
    await card.getByRole('button', { name: 'Close till' }).click();
    await expectToast(page, 'Till closed.');
    const closed = card.getByTestId('closed-till');
    await closed.getByText('Rs. 5,400.00').waitFor();
    await closed.getByText('-Rs. 100.00').waitFor();
    await closed.getByText('Note: A note of 100 went missing').waitFor();
    await card.getByRole('button', { name: 'Open till' }).waitFor();
    await settle(page);
    expect(await pageOverflow(page)).toBe(0);

    // The cash-up of the day shows the till (the day the server's zone is in, which the browser's may not be).
    await page.goto(`/payments?tab=cash-up&day=${todayIn('Asia/Colombo')}&cashBranch=${branch._id}`);
    const row = page.getByTestId('cash-up-till');
    await expect.poll(() => row.count()).toBe(1);
    await row.getByText('Rs. 5,500.00').waitFor();
    await row.getByText('A note of 100 went missing').waitFor();
    await settle(page);
    expect(await pageOverflow(page)).toBe(0);
  });
});

/**
 * A browser whose own day is not the organisation's (Pago Pago is 16½ hours behind Colombo,
 * Kiritimati 8½ ahead: one of them is on another day at any hour): the payment's date and the
 * cash-up's day are still the organisation's today.
 */
test("a payment's date and the cash-up's day are the organisation's, whatever the browser's zone", async () => {
  const timezoneId = otherDayZone();
  const today = todayIn('Asia/Colombo');
  const yesterday = addToDate(today, { days: -1 });

  const branch = await factory.branch({ name: unique('Aaa Zone') });
  const student = await factory.student({ branch: branch._id });
  const course = await factory.course({ totalFee: 10000, installments: 1, admissionFee: 0 });
  const enrolment = await factory.enrollment(course._id, 'installment', student.email, addToDate(today, { days: -3 }));
  const page = await browser.newPage({ timezoneId });
  await signIn(page, accounts().admin);
  await page.goto(`/courses/${course._id}/enrollment/${enrolment._id}`);
  await page.getByTestId('payments-panel').getByRole('button', { name: 'Record payment' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: `Date: ${formatDay(today)}` }).waitFor();
  await dialog.getByLabel('Amount (LKR)').fill('1250');
  await dialog.getByLabel('Method').selectOption('cash');
  await dialog.getByRole('button', { name: 'Record payment' }).click();
  await expectToast(page, /Payment recorded: receipt /);

  await page.goto(`/payments?tab=cash-up&cashBranch=${branch._id}`);
  await page.getByTestId('cash-up-totals').getByText('Rs. 1,250.00').waitFor();

  // A payment back-dated to yesterday is taken at yesterday's noon in Colombo, so the cash-up of
  // yesterday counts it, not the day before or after as the browser's noon would land.
  await page.goto(`/courses/${course._id}/enrollment/${enrolment._id}`);
  await page.getByTestId('payments-panel').getByRole('button', { name: 'Record payment' }).click();
  const again = page.getByRole('dialog');
  const picker = again.getByRole('button', { name: `Date: ${formatDay(today)}` });
  await picker.focus();
  await page.keyboard.press('Enter');
  await page.getByRole('grid').waitFor();
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('Enter');
  await again.getByRole('button', { name: `Date: ${formatDay(yesterday)}` }).waitFor();
  await again.getByLabel('Amount (LKR)').fill('1000');
  await again.getByLabel('Method').selectOption('cash');
  await again.getByRole('button', { name: 'Record payment' }).click();
  await expectToast(page, /Payment recorded: receipt /);
  await page.goto(`/payments?tab=cash-up&day=${yesterday}&cashBranch=${branch._id}`);
  await page.getByTestId('cash-up-totals').getByText('Rs. 1,000.00').waitFor();
});
