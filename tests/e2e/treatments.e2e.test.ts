import { describe, expect, test } from 'vitest';
import { accounts, api, expectGone, expectToast, pageOverflow, signIn, tokenFor, unique, useBrowser } from './helpers';

const browser = useBrowser();

describe('treatments and bookings', () => {
  test('creates a treatment, books it for a foreign customer in installments, works the booking and deletes it from its details', async () => {
    const page = await browser.newPage();
    await signIn(page, accounts().admin);
    const name = unique('Hot Stone Therapy');

    // Add New Treatment: the form's own check, then a successful create that clears the form.
    await page.goto('/treatment/create-treatement');
    await page.getByRole('button', { name: 'Create Treatment' }).click();
    await page.getByRole('alert').filter({ hasText: 'Please fill all the required fields.' }).waitFor();
    await page.getByLabel('Treatment Name').fill(`  ${name}  `);
    await page.getByLabel('Local Price (LKR)').fill('25000');
    await page.getByLabel('Foreign Price ($)').fill('100');
    await page.getByLabel('Max Sessions').fill('4');
    await page.getByLabel('Installments').fill('3');
    await page.getByLabel('Weeks').fill('2');
    await page.getByRole('button', { name: 'Create Treatment' }).click();
    await expectToast(page, 'Treatment created successfully!');
    await expect.poll(() => page.getByLabel('Treatment Name').inputValue()).toBe('');

    // All Treatments shows it with its duration.
    await page.goto('/treatment/all-treatment');
    await page.getByLabel('Search treatments').fill(name);
    const treatmentRow = page.getByTestId('treatment-row').filter({ hasText: name });
    await treatmentRow.getByText('2W').waitFor();

    // Book it for a foreign customer, named by email in another case with spaces.
    await page.goto('/treatment/booking');
    await page.getByLabel('User Email').fill('  Customer2@EXAMPLE.com ');
    await page.getByLabel('User Type').selectOption('foreign');
    await page.getByLabel('Payment Type').selectOption('installment');
    await page.locator('#booking-treatment').selectOption({ label: name });
    await page.getByTestId('treatment-details').getByText('$ 100.00').waitFor();
    await page.getByRole('button', { name: 'Book Treatment' }).click();
    await expectToast(page, 'Treatment booked successfully!');
    await page.waitForURL((url) => url.pathname === '/treatment/all-book');

    // Found by searching the treatment name in another case.
    await page.getByLabel('Search bookings').fill(name.toUpperCase());
    const row = page.getByTestId('booking-row').filter({ hasText: name });
    await row.getByText('customer2@example.com').waitFor();
    await expect.poll(() => page.getByTestId('booking-row').count()).toBe(1);
    await row.getByRole('link', { name: /View booking/ }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/booking-details/'));

    // The details: price in USD, nothing paid yet (red bar).
    await page.getByTestId('total-price').getByText('$ 100.00').waitFor();
    const bar = page.getByTestId('payment-progress');
    expect(await bar.getAttribute('data-percent')).toBe('0');
    expect(await bar.getAttribute('data-colour')).toBe('red');
    await expect.poll(() => page.getByTestId('installment-row').count()).toBe(3);

    // Raise the sessions to 1 (minus is disabled at 0), save.
    await page.getByRole('button', { name: 'Edit Sessions' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Fewer sessions' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'More sessions' }).click();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expectToast(page, 'Sessions updated!');
    await page.getByTestId('sessions-completed').getByText('1 of 4 sessions completed').waitFor();

    // Only the completed session takes a note.
    await expect.poll(() => page.getByRole('button', { name: 'Edit note for session 2' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Edit note for session 1' }).click();
    await page.getByLabel('Note for session 1').fill('Warm stones on the back; patient relaxed.');
    await page.getByRole('button', { name: 'Save note' }).click();
    await expectToast(page, 'Session note saved!');
    await page.locator('[data-session="1"]').getByText('Warm stones on the back; patient relaxed.').waitFor();

    // Pay the first installment: the bar moves to a third, orange.
    await page.getByTestId('installment-row').first().getByRole('button', { name: 'Mark as Paid' }).click();
    const dialog = page.getByRole('dialog', { name: 'Record payment' });
    await dialog.getByRole('button', { name: 'Record payment' }).click();
    await expectToast(page, /Payment recorded: receipt /);
    await expect.poll(() => bar.getAttribute('data-percent')).toBe('33');
    expect(await bar.getAttribute('data-colour')).toBe('orange');
    await page.getByTestId('payment-status').getByText('Partially Paid').first().waitFor();

    // Delete from the details screen: it works and returns to the list.
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await expectToast(page, 'Booking deleted successfully!');
    await page.waitForURL((url) => url.pathname === '/treatment/all-book');
    await page.getByLabel('Search bookings').fill(name);
    await page.getByText('No bookings found.').waitFor();
  });

  test('refuses a duplicate name in another case, edits a treatment inline and deletes it after confirming', async () => {
    const token = await tokenFor(accounts().admin);
    const name = unique('Lymph Drainage');
    const created = await api('POST', '/api/treatments', {
      token,
      body: { treatmentName: name, localPrice: 9000, foreignPrice: 30, maxSessions: 3, installments: 1 },
    });
    expect(created.status).toBe(201);

    const page = await browser.newPage();
    await signIn(page, accounts().admin);
    await page.goto('/treatment/create-treatement');
    await page.getByLabel('Treatment Name').fill(name.toUpperCase());
    await page.getByLabel('Local Price (LKR)').fill('1');
    await page.getByLabel('Foreign Price ($)').fill('1');
    await page.getByLabel('Max Sessions').fill('0');
    await page.getByLabel('Installments').fill('1');
    await page.getByRole('button', { name: 'Create Treatment' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'Prices must be positive and sessions/installments must be greater than zero' })
      .waitFor();
    await page.getByLabel('Max Sessions').fill('2');
    await page.getByRole('button', { name: 'Create Treatment' }).click();
    await page.getByRole('alert').filter({ hasText: 'A treatment with this name already exists' }).waitFor();

    await page.goto('/treatment/all-treatment');
    await page.getByLabel('Search treatments').fill(name);
    const id = await page.getByTestId('treatment-row').filter({ hasText: name }).getAttribute('data-treatment-id');
    const row = page.locator(`[data-treatment-id="${id}"]`);
    await row.getByRole('button', { name: `Edit ${name}` }).click();
    await row.getByLabel('Local Price').fill('9500.5');
    await row.getByLabel('Duration Days').fill('');
    await row.getByLabel('Duration Months').fill('2');
    // The timing the Add form has is edited in place too.
    await row.getByLabel('Session length (minutes)').fill('45');
    await row.getByLabel('Buffer after a session (minutes)').fill('10');
    await row.getByLabel('Requires a room').check();
    await row.getByRole('button', { name: 'Save' }).click();
    await expectToast(page, 'Treatment updated successfully!');
    await row.getByText('9,500.50').waitFor();
    await row.getByText('2M').waitFor();
    await row.getByText('45 min · +10 min buffer · room').waitFor();
    const saved = await api<
      Array<{ _id: string; sessionMinutes: number; bufferMinutes: number; requiresRoom: boolean }>
    >('GET', '/api/treatments', { token: await tokenFor(accounts().admin) });
    expect(saved.body.find((t) => t._id === id)).toMatchObject({
      sessionMinutes: 45,
      bufferMinutes: 10,
      requiresRoom: true,
    });
    // A session length out of bounds is refused with the schema's message, nothing saved.
    await row.getByRole('button', { name: `Edit ${name}` }).click();
    await row.getByLabel('Session length (minutes)').fill('2');
    await row.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Session length must be a whole number of minutes from 5 to 720.').first().waitFor();
    await row.getByRole('button', { name: 'Cancel' }).click();
    await row.getByText('45 min · +10 min buffer · room').waitFor();

    await row.getByRole('button', { name: `Delete ${name}` }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByText(name).waitFor();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expectToast(page, 'Treatment deleted successfully!');
    await expectGone(page.getByTestId('treatment-row').filter({ hasText: name }));
  });

  test('a manager reads bookings, filters the overdue ones (red) and sees no payment toggles', async () => {
    const page = await browser.newPage();
    await signIn(page, accounts().manager);
    await page.goto('/treatment/all-book');
    await page.getByLabel('Payment Status').selectOption('overdue');
    await page.waitForURL((url) => url.searchParams.get('status') === 'overdue');
    const badge = page.getByTestId('booking-row').first().getByTestId('payment-status');
    await badge.getByText('Overdue').waitFor();
    expect(await badge.getAttribute('data-status')).toBe('overdue');
    expect(await page.getByRole('link', { name: 'Book New Treatment' }).count()).toBe(0);
    const statuses = await page
      .getByTestId('booking-row')
      .getByTestId('payment-status')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-status')));
    expect(new Set(statuses)).toEqual(new Set(['overdue']));

    await page
      .getByTestId('booking-row')
      .first()
      .getByRole('link', { name: /View booking/ })
      .click();
    await page.getByText('Installment Details').waitFor();
    await page.getByTestId('installment-row').first().waitFor();
    expect(await page.getByRole('button', { name: 'Mark as Paid' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Delete' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Edit Sessions' }).waitFor();
    await page.getByRole('link', { name: 'Back to All Treatments' }).click();
    await page.waitForURL((url) => url.pathname === '/treatment/all-book');
  });
  test('the Add New Treatment form sets the session length, the buffer and whether a room is needed', async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await signIn(page, accounts().admin);
    const name = unique('Timed Massage');
    await page.goto('/treatment/create-treatement');
    // The defaults a treatment gets without them.
    expect(await page.getByLabel('Session length (minutes)').inputValue()).toBe('60');
    expect(await page.getByLabel('Buffer after a session (minutes)').inputValue()).toBe('0');
    expect(await page.getByLabel('Requires a room').isChecked()).toBe(false);
    await page.getByLabel('Treatment Name').fill(name);
    await page.getByLabel('Local Price (LKR)').fill('8000');
    await page.getByLabel('Foreign Price ($)').fill('40');
    await page.getByLabel('Max Sessions').fill('6');
    await page.getByLabel('Installments').fill('1');

    // Outside the bounds the server also holds: the field's own message, nothing created.
    await page.getByLabel('Session length (minutes)').fill('3');
    await page.getByRole('button', { name: 'Create Treatment' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'Session length must be a whole number of minutes from 5 to 720.' })
      .waitFor();
    await page.getByLabel('Session length (minutes)').fill('45');
    await page.getByLabel('Buffer after a session (minutes)').fill('250');
    await page.getByRole('button', { name: 'Create Treatment' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'Buffer must be a whole number of minutes from 0 to 240.' })
      .waitFor();

    await page.getByLabel('Buffer after a session (minutes)').fill('15');
    await page.getByLabel('Requires a room').check();
    await page.getByRole('button', { name: 'Create Treatment' }).click();
    await expectToast(page, 'Treatment created successfully!');
    // The form starts again from the defaults.
    await expect.poll(() => page.getByLabel('Session length (minutes)').inputValue()).toBe('60');
    expect(await page.getByLabel('Requires a room').isChecked()).toBe(false);
    expect(await pageOverflow(page)).toBe(0);

    const list = await api<
      Array<{ treatmentName: string; sessionMinutes: number; bufferMinutes: number; requiresRoom: boolean }>
    >('GET', '/api/treatments', { token: await tokenFor(accounts().admin) });
    const made = list.body.filter((t) => t.treatmentName === name);
    expect(made.map((t) => [t.sessionMinutes, t.bufferMinutes, t.requiresRoom])).toEqual([[45, 15, true]]);
  });
});
