import { describe, expect, test } from 'vitest';
import { accounts, signIn, useBrowser } from './helpers';

const browser = useBrowser();

/** Every screen a role may use is reachable from the sidebar or a link (docs/product.md#screens-and-routes). */
describe('reaching the lists from the sidebar', () => {
  test('a manager reaches All Bookings and All Enrollments from the sidebar', async () => {
    const page = await browser.newPage();
    await signIn(page, accounts().manager);
    const sidebar = page.getByTestId('sidebar');

    await sidebar.getByRole('link', { name: 'Treatment', exact: true }).click();
    await sidebar.getByRole('link', { name: 'All Bookings', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/treatment/all-book');
    await page.getByRole('heading', { name: 'All Treatment Bookings' }).waitFor();
    await page.getByTestId('booking-row').first().waitFor();
    expect(await page.getByTestId('permission-denied').count()).toBe(0);

    await sidebar.getByRole('link', { name: 'Courses', exact: true }).click();
    await sidebar.getByRole('link', { name: 'All Enrollments', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/courses/AllStudentEnrollments');
    await page.getByTestId('enrollment-row').first().waitFor();
  });

  test("an admin keeps the documented sub-links and no manager's twin of them", async () => {
    const page = await browser.newPage();
    await signIn(page, accounts().admin);
    const sidebar = page.getByTestId('sidebar');
    await sidebar.getByRole('link', { name: 'Treatment', exact: true }).click();
    await sidebar.getByRole('link', { name: 'All Book Treatment', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/treatment/all-book');
    expect(await sidebar.getByRole('link', { name: 'All Bookings', exact: true }).count()).toBe(0);
    await sidebar.getByRole('link', { name: 'Courses', exact: true }).click();
    await sidebar.getByRole('link', { name: 'All Enroll', exact: true }).waitFor();
    expect(await sidebar.getByRole('link', { name: 'All Enrollments', exact: true }).count()).toBe(0);
  });
});
