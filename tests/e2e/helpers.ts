import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, inject } from 'vitest';
import { todayIn } from '../../src/shared/calendar';

/**
 * Browser-test helpers. A test file:
 *
 *   const browser = useBrowser();
 *   test('adds a branch', async () => {
 *     const page = await browser.newPage();
 *     await signIn(page, accounts().superadmin);
 *     await page.goto('/branch/add-branch');
 *     ...
 *     await expectToast(page, 'Branch added successfully!');
 *   });
 *
 * The server, its database (seeded with the demo data) and the built client are shared by the
 * whole run (tests/e2e/setup/global-setup.ts): make names unique with `unique()`.
 */

export function e2eEnv() {
  return inject('e2e');
}

export interface Account {
  email: string;
  password: string;
}

/** The seeded accounts: the superadmin from SEED_ADMIN_*, and demo users of each role. */
export function accounts() {
  const { superadmin, demoPassword } = e2eEnv();
  const demo = (username: string): Account => ({ email: `${username}@example.com`, password: demoPassword });
  return {
    superadmin,
    admin: demo('admin.colombo'),
    manager: demo('manager'),
    student: demo('student1'),
    customer: demo('customer1'),
    user: demo('user1'),
  };
}

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
}

export interface PageOptions {
  viewport?: { width: number; height: number };
  /** The browser's own time zone (an IANA name); the machine's when unset. */
  timezoneId?: string;
}

/**
 * One Chromium per test file; every `newPage()` is a fresh context (no cookies, no storage).
 * Contexts close after each test; a failing test leaves a screenshot in test-results/e2e/.
 */
export function useBrowser() {
  let browser: Browser | undefined;
  let contexts: BrowserContext[] = [];

  beforeAll(async () => {
    browser = await launchBrowser();
  });

  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') {
      const dir = path.resolve('test-results/e2e');
      fs.mkdirSync(dir, { recursive: true });
      const name = ctx.task.name.replace(/[^a-z0-9]+/gi, '-').slice(0, 80);
      let i = 0;
      for (const c of contexts) {
        for (const p of c.pages()) {
          await p.screenshot({ path: path.join(dir, `${name}-${i++}.png`), fullPage: true }).catch(() => {});
        }
      }
    }
    await Promise.all(contexts.map((c) => c.close().catch(() => {})));
    contexts = [];
  });

  afterAll(async () => {
    await browser?.close();
  });

  return {
    async newPage(opts: PageOptions = {}): Promise<Page> {
      if (!browser) throw new Error('useBrowser(): the browser is not started (call newPage inside a test)');
      const context = await browser.newContext({
        baseURL: e2eEnv().baseUrl,
        viewport: opts.viewport ?? { width: 1280, height: 800 },
        colorScheme: 'light',
        timezoneId: opts.timezoneId,
      });
      context.setDefaultTimeout(15_000);
      contexts.push(context);
      return context.newPage();
    },
  };
}

/** Signs in through the login screen and waits until the app has left /login. */
export async function signIn(page: Page, account: Account, opts: { from?: string } = {}) {
  await page.goto(opts.from ?? '/login');
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.pathname !== '/login');
}

/** Waits for a sonner toast whose text contains `text` (string or pattern) and returns it. */
export async function expectToast(page: Page, text: string | RegExp): Promise<Locator> {
  const toast = page.locator('[data-sonner-toast]').filter({ hasText: text }).first();
  await toast.waitFor({ state: 'visible' });
  return toast;
}

/**
 * Closes every toast, as a user does before reaching a button beneath the stack: toasts sit
 * top-right over page-header actions and pause while hovered, so they never leave on their own
 * while the pointer waits on them.
 */
export async function dismissToasts(page: Page) {
  const close = page.locator('[data-sonner-toast] [data-close-button]');
  for (let i = 0; i < 40 && (await close.count()) > 0; i++) {
    await close
      .first()
      .click({ force: true })
      .catch(() => {});
    await page.waitForTimeout(50);
  }
}

/** Resolves once the locator is gone (or hidden). */
export async function expectGone(locator: Locator) {
  await locator.first().waitFor({ state: 'hidden' });
}

let counter = 0;
/** A name no other test (or earlier run on the same database) uses. */
export function unique(prefix: string): string {
  counter += 1;
  return `${prefix} ${Date.now().toString(36)}${counter}`;
}

// ---------------------------------------------------------------------------------------------
// Data through the REST API (bearer token), for arranging what a screen test needs.

export interface ApiAnswer<T> {
  status: number;
  body: T;
}

export async function api<T = unknown>(
  method: string,
  urlPath: string,
  opts: { token?: string; body?: unknown } = {},
): Promise<ApiAnswer<T>> {
  const headers: Record<string, string> = {};
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(e2eEnv().baseUrl + urlPath, {
    method,
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // Not JSON (a file); keep the text.
  }
  return { status: res.status, body: body as T };
}

const tokens = new Map<string, string>();
/** A bearer token for the account (POST /api/users/auth), cached per run. */
export async function tokenFor(account: Account): Promise<string> {
  const cached = tokens.get(account.email);
  if (cached) return cached;
  const res = await api<{ token: string }>('POST', '/api/users/auth', { body: account });
  if (res.status !== 200)
    throw new Error(`sign-in of ${account.email} failed: ${res.status} ${JSON.stringify(res.body)}`);
  tokens.set(account.email, res.body.token);
  return res.body.token;
}

async function created<T>(res: ApiAnswer<T>, what: string): Promise<T> {
  if (res.status < 200 || res.status >= 300)
    throw new Error(`creating ${what} failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Small factories over the documented /api paths; each domain adds its own here. */
export const factory = {
  async branch(overrides: Partial<{ name: string; location: string }> = {}) {
    const token = await tokenFor(accounts().superadmin);
    const body = { name: unique('Branch'), location: 'Test Street 1', ...overrides };
    return created<{ _id: string; name: string; location: string }>(
      await api('POST', '/api/branch', { token, body }),
      'a branch',
    );
  },
  /** A course (POST /api/course) as an admin; fees in rupees. */
  async course(
    overrides: Partial<{
      courseName: string;
      duration: string;
      totalFee: number;
      installments: number;
      category: string;
      admissionFee: number;
    }> = {},
  ) {
    const token = await tokenFor(accounts().admin);
    const body = {
      courseName: unique('Certificate in Testing'),
      duration: '2 months',
      totalFee: 20000,
      installments: 2,
      category: 'Testing',
      admissionFee: 1000,
      ...overrides,
    };
    return created<{ _id: string; courseName: string }>(await api('POST', '/api/course', { token, body }), 'a course');
  },
  /** An enrolment (POST /api/enrollments) as an admin, of `student2@example.com` unless given an e-mail. */
  /** `enrolledOn` (YYYY-MM-DD) dates it back, so a payment may be back-dated to that day. */
  async enrollment(
    courseId: string,
    paymentType: 'full' | 'installment',
    email = 'student2@example.com',
    enrolledOn?: string,
  ) {
    const token = await tokenFor(accounts().admin);
    return created<{ _id: string }>(
      await api('POST', '/api/enrollments', { token, body: { email, courseId, paymentType, enrolledOn } }),
      'an enrolment',
    );
  },
  /** A student (POST /api/users) as an admin, signing in with `long-enough-pw`, in a new branch unless given one. */
  async student(
    overrides: Partial<{ username: string; fullName: string; email: string; branch: string; phone: string }> = {},
  ) {
    const token = await tokenFor(accounts().admin);
    const tag = unique('Student').replace(/\W/g, '');
    const body = {
      username: tag,
      fullName: `Student ${tag}`,
      email: `${tag.toLowerCase()}@example.com`,
      password: 'long-enough-pw',
      role: 'student',
      ...overrides,
      branch: overrides.branch ?? (await factory.branch())._id,
    };
    return created<{ _id: string; username: string; email: string }>(
      await api('POST', '/api/users', { token, body }),
      'a student',
    );
  },
};

// ---------------------------------------------------------------------------------------------
// Every screen of the app, for the tests that walk them all (CSP, accessibility, phone width).

export interface Screen {
  path: string;
  /** The screen's main thing to do, when it has one a person must always be able to reach. */
  primary?: { role: 'button' | 'link' | 'textbox' | 'tab'; name: string | RegExp };
}

/** How far the page itself scrolls sideways: 0 when nothing sticks out of the window's width. */
export const pageOverflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/** Waits until the screen has its data: no request in flight and no loading skeleton left. */
export async function settle(page: Page) {
  await page.waitForLoadState('networkidle');
  await page
    .locator('[data-slot=skeleton]')
    .first()
    .waitFor({ state: 'detached', timeout: 10_000 })
    .catch(() => {});
}

/** The screen's primary action, found as a person finds it: by its role and exact name. */
export const primaryAction = (page: Page, primary: NonNullable<Screen['primary']>) =>
  page.getByRole(primary.role, { name: primary.name, exact: true }).first();

/**
 * Opens each screen in turn, waits for its data (`settle`) and gathers what `check` finds wrong
 * with it, one line per problem: a failing test names every screen that fails at once.
 */
export async function walkScreens(
  page: Page,
  screens: readonly Screen[],
  check: (page: Page, screen: Screen) => Promise<string[]>,
): Promise<string[]> {
  const problems: string[] = [];
  for (const screen of screens) {
    await page.goto(screen.path);
    await settle(page);
    problems.push(...(await check(page, screen)));
  }
  return problems;
}

/** The screens before sign-in. */
export const PUBLIC_SCREENS: Screen[] = [
  { path: '/login', primary: { role: 'button', name: 'Sign in' } },
  { path: '/forgot-password', primary: { role: 'button', name: 'Send OTP' } },
  { path: '/reset-password?email=someone%40example.com', primary: { role: 'button', name: /Verify/ } },
];

/**
 * The screens a superadmin reaches (with a real enrolment and booking for the detail screens),
 * each with its primary action.
 */
export async function adminScreens(): Promise<Screen[]> {
  const token = await tokenFor(accounts().superadmin);
  const enrollments = await api<{
    data: Array<{ _id: string; courseId: { _id: string } | null; userId: { _id: string } | null }>;
  }>('GET', '/api/enrollments', { token });
  const enrollment = enrollments.body.data.find((e) => e.courseId && e.userId);
  const bookings = await api<Array<{ _id: string; paymentType: string }>>('GET', '/api/bookings/bookings', { token });
  // The detail screen whose installment table is widest: one paid in installments.
  const booking = bookings.body.find((b) => b.paymentType === 'installment') ?? bookings.body[0];
  if (!enrollment || !booking) throw new Error('the demo data has no enrolment or booking to show');
  return [
    { path: '/', primary: { role: 'button', name: 'Toggle sidebar' } },
    { path: '/analytics' },
    { path: '/branch', primary: { role: 'link', name: 'Add Branch' } },
    { path: '/branch/all-branch', primary: { role: 'link', name: 'Add Branch' } },
    { path: '/branch/add-branch', primary: { role: 'button', name: 'Add Branch' } },
    { path: '/courses', primary: { role: 'link', name: 'Add Course' } },
    { path: '/courses/all-courses', primary: { role: 'link', name: 'Add Course' } },
    { path: '/courses/add-courses', primary: { role: 'button', name: 'Add Course' } },
    { path: '/courses/enrollment', primary: { role: 'button', name: 'Enroll Student' } },
    { path: '/courses/AllStudentEnrollments', primary: { role: 'link', name: 'Enroll Student' } },
    {
      path: `/courses/${enrollment.courseId!._id}/enrollment/${enrollment._id}`,
      primary: { role: 'button', name: /Mark as (Paid|Unpaid)/ },
    },
    { path: '/student' },
    { path: '/student/add-students' },
    { path: '/treatment', primary: { role: 'link', name: 'Add Treatment' } },
    { path: '/treatment/all-treatment', primary: { role: 'link', name: 'Add Treatment' } },
    { path: '/treatment/create-treatement', primary: { role: 'button', name: 'Create Treatment' } },
    { path: '/treatment/booking', primary: { role: 'button', name: 'Book Treatment' } },
    { path: '/treatment/all-book', primary: { role: 'link', name: 'Book New Treatment' } },
    { path: `/booking-details/${booking._id}`, primary: { role: 'button', name: /Mark as (Paid|Unpaid)/ } },
    { path: '/users', primary: { role: 'link', name: 'Add User' } },
    { path: '/users/all-users', primary: { role: 'link', name: 'Add User' } },
    { path: '/users/add-user', primary: { role: 'button', name: 'Add User' } },
    { path: '/users/profile', primary: { role: 'button', name: 'Edit Profile' } },
    { path: `/users/${enrollment.userId!._id}` },
    { path: `/courses/${enrollment.courseId!._id}` },
    { path: '/payments', primary: { role: 'tab', name: 'Cash-up' } },
    { path: '/audit', primary: { role: 'link', name: 'Export to Excel' } },
    { path: '/inventory' },
    { path: '/manager' },
    { path: '/settings', primary: { role: 'button', name: 'Save' } },
    { path: '/settings/messages', primary: { role: 'button', name: 'Save settings' } },
    { path: '/settings/messages?tab=templates', primary: { role: 'button', name: 'Save template' } },
    { path: '/settings/messages?tab=log', primary: { role: 'tab', name: 'Log' } },
    { path: '/reports', primary: { role: 'tab', name: 'Reports' } },
    { path: '/no-such-page' },
  ];
}

/**
 * A browser zone whose day is not Colombo's at this moment: Pago Pago (a day behind) until 16:00
 * in Colombo, Kiritimati (a day ahead) after, so a screen that takes the browser's day shows
 * another date than the organisation's.
 */
export function otherDayZone(): string {
  const colomboHour = Number(
    new Intl.DateTimeFormat('en-GB', { timeZone: 'Asia/Colombo', hour: '2-digit', hourCycle: 'h23' }).format(
      new Date(),
    ),
  );
  const zone = colomboHour < 16 ? 'Pacific/Pago_Pago' : 'Pacific/Kiritimati';
  if (todayIn(zone) === todayIn('Asia/Colombo')) throw new Error(`${zone} is on Colombo's day`);
  return zone;
}
