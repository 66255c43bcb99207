import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { accounts, api, expectToast, signIn, tokenFor, useBrowser } from './helpers';

const browser = useBrowser();
const DESKTOP = { width: 1360, height: 900 };
const PHONE = { width: 390, height: 844 };

interface BookingRow {
  _id: string;
  paymentType: string;
  status: string;
  userId: { _id: string; username: string } | null;
  treatmentId: { _id: string | null; treatmentName: string };
}

/** An active booking paid in installments whose customer still exists (the demo data has several). */
async function aBooking(): Promise<BookingRow> {
  const token = await tokenFor(accounts().superadmin);
  const res = await api<BookingRow[]>('GET', '/api/bookings/bookings', { token });
  const b = res.body.find((x) => x.paymentType === 'installment' && x.status === 'active' && x.userId);
  if (!b) throw new Error('the demo data has no active installment booking');
  return b;
}

/** The accessible name of what has the focus. */
const focusedName = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return el ? (el.getAttribute('aria-label') ?? el.innerText ?? '').trim() : '';
  });

/** Presses Tab until the focus is on something named `name`, as a keyboard user would. */
async function tabTo(page: Page, name: RegExp, max = 120) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    if (name.test(await focusedName(page))) return;
  }
  throw new Error(`Tab never reached ${String(name)}`);
}

describe('detail screens', () => {
  test('booking details with the keyboard only: confirm dialog, Record payment, Mark as Paid, and on to the patient', async () => {
    const b = await aBooking();
    const page = await browser.newPage({ viewport: DESKTOP });
    await signIn(page, accounts().superadmin);
    await page.goto(`/booking-details/${b._id}`);
    await page.getByTestId('installment-row').first().waitFor();

    // Delete: Enter opens the confirmation, Escape closes it and the focus comes back.
    await tabTo(page, /^Delete$/);
    await page.keyboard.press('Enter');
    const confirm = page.getByRole('alertdialog');
    await confirm.waitFor();
    expect(await confirm.evaluate((d) => d.contains(document.activeElement))).toBe(true);
    await page.keyboard.press('Escape');
    await confirm.waitFor({ state: 'detached' });
    // The focus goes back where it was (Radix restores it once the dialog has gone).
    await page.waitForFunction(() => document.activeElement?.textContent?.trim() === 'Delete', undefined, {
      timeout: 5_000,
    });

    // Mark as Paid and back with Enter. Neither acts at once: Mark as Paid opens Record payment for
    // the installment, prefilled with what it owes; Mark as Unpaid asks to confirm the receipt it voids.
    const first = page.getByTestId('installment-row').first();
    const wasPaid = (await first.getAttribute('data-paid')) === 'true';
    const paidIs = (paid: boolean) =>
      page.waitForFunction(
        (p) => document.querySelector('[data-testid=installment-row]')?.getAttribute('data-paid') === String(p),
        paid,
      );
    /** Reaches the switch by Tab the first time; the second time it is the one the focus came back to. */
    const reach = async (name: 'Mark as Paid' | 'Mark as Unpaid', byTab: boolean) => {
      const button = first.getByRole('button', { name });
      if (byTab) return tabTo(page, new RegExp(`^${name}$`));
      // The switch is free again as soon as the booking's answer is on screen, while the lists
      // around it refresh; a keyboard user presses it once it is (a click would wait the same way).
      await button.and(page.locator(':enabled')).waitFor({ timeout: 5_000 });
      await button.focus();
    };
    const markPaid = async (byTab: boolean) => {
      await reach('Mark as Paid', byTab);
      await page.keyboard.press('Enter');
      const pay = page.getByRole('dialog', { name: 'Record payment' });
      await pay.waitFor();
      expect(await pay.evaluate((d) => d.contains(document.activeElement))).toBe(true);
      await pay.getByText(/^Installment 1: .+ outstanding\. Name how it was paid\.$/).waitFor();
      await tabTo(page, /^Record payment$/);
      await page.keyboard.press('Enter');
      await expectToast(page, /Payment recorded: receipt /);
      await pay.waitFor({ state: 'detached' });
      await paidIs(true);
    };
    const markUnpaid = async (byTab: boolean) => {
      await reach('Mark as Unpaid', byTab);
      await page.keyboard.press('Enter');
      const ask = page.getByRole('alertdialog', { name: 'Mark as Unpaid?' });
      await ask.waitFor();
      expect(await ask.evaluate((d) => d.contains(document.activeElement))).toBe(true);
      // The button is free once the server has said which receipts it would void.
      await ask.getByRole('button', { name: 'Void and mark unpaid' }).and(page.locator(':enabled')).waitFor();
      await tabTo(page, /^Void and mark unpaid$/);
      await page.keyboard.press('Enter');
      await expectToast(page, 'Installment status updated!');
      await ask.waitFor({ state: 'detached' });
      await paidIs(false);
    };
    if (wasPaid) {
      await markUnpaid(true);
      await markPaid(false);
    } else {
      await markPaid(true);
      await markUnpaid(false);
    }

    // Record payment: a dialog that takes the focus and closes with Escape.
    await tabTo(page, /Record payment/);
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    // The patient's name leads to their screen, which lists this booking among theirs.
    await page.getByRole('link', { name: new RegExp(`(^| )${b.userId!.username}$`) }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === `/users/${b.userId!._id}`);
    await page
      .getByRole('link', { name: `View booking of ${b.treatmentId.treatmentName}` })
      .first()
      .waitFor();
    await page.getByRole('table', { name: 'Enrollments' }).or(page.getByText('No enrollments yet.')).first().waitFor();
    await page.getByRole('table', { name: 'Payments' }).or(page.getByText('No payments yet.')).first().waitFor();
  }, 120_000);

  test('enrolment details lead to the course, whose screen lists its enrolments', async () => {
    const token = await tokenFor(accounts().superadmin);
    const res = await api<{ data: Array<{ _id: string; courseId: { _id: string; courseName: string } | null }> }>(
      'GET',
      '/api/enrollments',
      { token },
    );
    const e = res.body.data.find((x) => x.courseId);
    if (!e?.courseId) throw new Error('the demo data has no enrolment');
    const page = await browser.newPage({ viewport: DESKTOP });
    await signIn(page, accounts().superadmin);
    await page.goto(`/courses/${e.courseId._id}/enrollment/${e._id}`);
    await page.getByRole('link', { name: e.courseId.courseName, exact: true }).click();
    await page.waitForURL((url) => url.pathname === `/courses/${e.courseId!._id}`);
    const rows = page.getByTestId('related-enrollment');
    await rows.first().waitFor();
    await page.locator(`a[href$="/enrollment/${e._id}"]`).first().waitFor();
  }, 60_000);

  test('at phone width booking details keep Mark as Paid and Delete on screen', async () => {
    const b = await aBooking();
    const page = await browser.newPage({ viewport: PHONE });
    await signIn(page, accounts().superadmin);
    await page.goto(`/booking-details/${b._id}`);
    await page.getByTestId('installment-row').first().waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    for (const name of [/^Mark as (Paid|Unpaid)$/, /^Delete$/]) {
      const button = page.getByRole('button', { name }).first();
      await button.scrollIntoViewIfNeeded();
      const box = await button.boundingBox();
      expect(box).not.toBeNull();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);
    }
  }, 60_000);
});
