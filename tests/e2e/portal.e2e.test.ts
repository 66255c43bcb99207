import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Page } from 'playwright-core';
import postgres from 'postgres';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { addToDate, todayIn } from '../../src/shared/calendar';
import en from '../../src/portal/locales/en.json';
import si from '../../src/portal/locales/si.json';
import ta from '../../src/portal/locales/ta.json';
import {
  accounts,
  api,
  e2eEnv,
  expectGone,
  factory,
  pageOverflow,
  settle,
  signIn,
  tokenFor,
  unique,
  useBrowser,
} from './helpers';

/**
 * The portal in a browser (docs/portal.md): a student with a course and a patient with
 * appointments walk it in English, Sinhala and Tamil on a 390 px phone, cancel outside the
 * cut-off, are told whom to call inside it, and download a receipt. Every screen is checked for
 * sideways scroll, small touch targets and serious axe findings, and the first screen's script.
 */

const browser = useBrowser();
const TZ = 'Asia/Colombo';
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1360, height: 900 };
const LANGS = { en, si, ta } as const;
type Lang = keyof typeof LANGS;
const LOCALES: Record<Lang, string> = { en: 'en-LK', si: 'si-LK', ta: 'ta-LK' };
const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const sql = postgres(e2eEnv().databaseUrl, { max: 1, onnotice: () => {} });
afterAll(() => sql.end({ timeout: 5 }));

// The clinic's number (Settings → Organisation) is what a person inside the cut-off is told to
// call, and the receipt footer holds the bank details; both are put back afterwards.
const CLINIC_PHONE = '011 234 5678';
let savedOrganisation: Record<string, unknown> | null = null;
beforeAll(async () => {
  const token = await tokenFor(accounts().superadmin);
  const current = await api<Record<string, unknown>>('GET', '/api/settings/organisation', { token });
  savedOrganisation = current.body;
  const { name, address, email, receiptFooter } = current.body;
  const res = await api('PUT', '/api/settings/organisation', {
    token,
    body: {
      name,
      address,
      email,
      phone: CLINIC_PHONE,
      receiptFooter: receiptFooter || 'Bank of Ceylon, account 0001234567, Colombo branch',
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
});
afterAll(async () => {
  if (!savedOrganisation) return;
  const { name, address, email, phone, receiptFooter } = savedOrganisation;
  await api('PUT', '/api/settings/organisation', {
    token: await tokenFor(accounts().superadmin),
    body: { name, address, email, phone, receiptFooter },
  });
});

/** Money as the page's browser writes it in the language's locale (its ICU, not Node's). */
const moneyIn = (page: Page, lang: Lang, amount: number) =>
  page.evaluate(([locale, n]) => new Intl.NumberFormat(locale, { style: 'currency', currency: 'LKR' }).format(n), [
    LOCALES[lang],
    amount,
  ] as const);

/** A text of the catalogue, filled in as the portal fills it. */
function tr(lang: Lang, key: string, vars: Record<string, string | number> = {}): string {
  const text = key.split('.').reduce<unknown>((v, k) => (v as Record<string, unknown>)[k], LANGS[lang]);
  if (typeof text !== 'string') throw new Error(`no text ${key}`);
  return text.replace(/\{\{(\w+)\}\}/g, (_m, name: string) => String(vars[name]));
}

/** Screenshots for a person to look at, when SHOTS_DIR names a folder. */
async function shot(page: Page, name: string) {
  const dir = process.env.SHOTS_DIR;
  if (!dir) return;
  fs.mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true });
}

/** What is wrong with the screen for a phone user: sideways scroll, targets under 44 px, axe. */
async function phoneProblems(page: Page, where: string): Promise<string[]> {
  await settle(page);
  const problems: string[] = [];
  const overflow = await pageOverflow(page);
  if (overflow > 0) problems.push(`${where}: scrolls ${overflow} px sideways`);
  const small = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('a[href], button, input, select, textarea, [role=button]')]
      .filter((el) => {
        const r = el.getBoundingClientRect();
        // Hidden, or visually hidden until focused (the skip link): not a target on screen.
        if (r.width <= 1 && r.height <= 1) return false;
        // A checkbox or radio is reached through its label, which is the target.
        const input = el as HTMLInputElement;
        if (input.type === 'checkbox' || input.type === 'radio') {
          const label = input.closest('label')?.getBoundingClientRect();
          return !label || label.height < 44;
        }
        return r.height < 44 || r.width < 44;
      })
      .map((el) => el.outerHTML.slice(0, 120)),
  );
  for (const s of small) problems.push(`${where}: touch target under 44 px: ${s}`);
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const found = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            d: Document,
            o: object,
          ) => Promise<{ violations: Array<{ id: string; impact?: string | null; nodes: Array<{ html: string }> }> }>;
        };
      }
    ).axe;
    const result = await axe.run(document, { rules: { 'label-content-name-mismatch': { enabled: true } } });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.html.slice(0, 100)).join(' | ')}`);
  });
  for (const f of found) problems.push(`${where}: axe ${f}`);
  return problems;
}

const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

/** A person of `role` with a password, in `branch`. */
async function person(role: 'student' | 'customer', branch: string) {
  const token = await tokenFor(accounts().superadmin);
  const tag = unique(role).replace(/\W/g, '').toLowerCase();
  const res = await api<{ _id: string; email: string }>('POST', '/api/users', {
    token,
    body: {
      username: tag,
      fullName: `${role === 'student' ? 'Nimali' : 'Kumar'} ${tag}`,
      email: `${tag}@example.com`,
      password: 'long-enough-pw',
      role,
      branch,
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { ...res.body, password: 'long-enough-pw' };
}

/** Sets the person's language in their profile, as they would in the portal. */
async function setLanguage(account: { email: string; password: string }, lang: Lang) {
  const token = await tokenFor(account);
  const res = await api('PUT', '/api/portal/profile', { token, body: { language: lang } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/** A student with a two-installment course, one installment part paid (a receipt). */
async function studentWithCourse() {
  const branch = await factory.branch({ name: unique('Portal Institute') });
  const student = await person('student', branch._id);
  const courseName = unique('Diploma in Portals');
  const course = await factory.course({ courseName, totalFee: 20000, installments: 2, admissionFee: 0 });
  const enrolment = await factory.enrollment(course._id, 'installment', student.email);
  const token = await tokenFor(accounts().admin);
  const paid = await api<{ receiptNumber: string }>('POST', '/api/payments', {
    token,
    body: { enrollmentId: enrolment._id, amount: 4000, method: 'cash' },
  });
  expect(paid.status, JSON.stringify(paid.body)).toBe(201);
  return { student, courseName, receipt: paid.body.receiptNumber };
}

/** The next quarter hour at least `hours` from now, as an instant. */
function quarterFromNow(hours: number): string {
  const q = 15 * 60_000;
  return new Date(Math.ceil((Date.now() + hours * 3_600_000) / q) * q).toISOString();
}

/**
 * A patient: a booking of a 10-session treatment paid in part, one appointment three days ahead
 * (outside the 24 h cut-off) and one in about two hours (inside it).
 */
async function patientWithAppointments() {
  const token = await tokenFor(accounts().superadmin);
  const branch = await factory.branch({ name: unique('Portal Clinic') });
  const treatment = await api<{ _id: string; treatmentName: string }>('POST', '/api/treatments', {
    token,
    body: {
      treatmentName: unique('Physiotherapy'),
      localPrice: 10000,
      foreignPrice: 100,
      maxSessions: 10,
      installments: 1,
      duration: { weeks: 0, days: 0, months: 3 },
      sessionMinutes: 30,
    },
  });
  expect(treatment.status, JSON.stringify(treatment.body)).toBe(201);
  const therapist = await factory.student({ branch: branch._id, fullName: unique('Therapist') });
  const practitioner = await api<{ _id: string }>('POST', '/api/practitioners', {
    token,
    body: { userId: therapist._id, branchIds: [branch._id], treatmentIds: [treatment.body._id] },
  });
  expect(practitioner.status, JSON.stringify(practitioner.body)).toBe(201);
  const plan = await api('PUT', `/api/practitioners/${practitioner.body._id}/working-plan`, {
    token,
    body: { branchId: branch._id, days: Object.fromEntries(DAYS.map((d) => [d, [{ start: '00:00', end: '24:00' }]])) },
  });
  expect(plan.status, JSON.stringify(plan.body)).toBe(200);
  const patient = await person('customer', branch._id);
  const booking = await api<{ _id: string }>('POST', '/api/bookings/book', {
    token,
    body: { treatmentId: treatment.body._id, userId: patient._id, userType: 'local', paymentType: 'full' },
  });
  expect(booking.status, JSON.stringify(booking.body)).toBe(201);
  const book = async (start: string) => {
    const res = await api<{ _id: string }>('POST', '/api/appointments', {
      token,
      body: { bookingId: booking.body._id, practitionerId: practitioner.body._id, branchId: branch._id, start },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return { _id: res.body._id, start };
  };
  const outside = await book(quarterFromNow(72));
  const inside = await book(quarterFromNow(2));
  const paid = await api<{ receiptNumber: string }>('POST', '/api/payments', {
    token,
    body: { bookingId: booking.body._id, amount: 2500, method: 'cash' },
  });
  expect(paid.status, JSON.stringify(paid.body)).toBe(201);
  return { patient, treatment: treatment.body, outside, inside, receipt: paid.body.receiptNumber };
}

/** Signs in on the portal's own sign-in screen with the password, in whatever language it shows. */
async function portalSignIn(
  page: Page,
  account: { email: string; password: string },
  lang: Lang = 'en',
  landsOn = '/portal',
) {
  await page.goto('/portal/sign-in');
  await page.getByLabel(tr(lang, 'signIn.email'), { exact: true }).fill(account.email);
  await page.getByLabel(tr(lang, 'signIn.password'), { exact: true }).fill(account.password);
  await page.getByRole('button', { name: tr(lang, 'signIn.submit'), exact: true }).click();
  await page.waitForURL((url) => url.pathname === landsOn);
}

/** Picks the page's language with the switch in the header. */
async function switchTo(page: Page, lang: Lang) {
  await page.locator('header select').first().selectOption(lang);
  await page.waitForFunction((l) => document.documentElement.lang === l, lang);
}

/** An instant as the portal writes it, by the page's browser in the language's locale. */
const dateTimeIn = (page: Page, lang: Lang, iso: string) =>
  page.evaluate(
    ([locale, at, timeZone]) =>
      new Intl.DateTimeFormat(locale, {
        weekday: 'short',
        day: 'numeric',
        month: 'short',
        year: 'numeric',
        hour: 'numeric',
        minute: '2-digit',
        timeZone,
      }).format(new Date(at)),
    [LOCALES[lang], iso, TZ] as const,
  );

describe('the portal', () => {
  for (const lang of ['en', 'si', 'ta'] as const) {
    test(`a student with a course walks every screen in ${lang} at 390 px and downloads a receipt`, async () => {
      const { student, courseName, receipt } = await studentWithCourse();
      // The profile's language is the portal's from the start, whatever the device chose before.
      await setLanguage(student, lang);
      const page = await browser.newPage({ viewport: PHONE });
      await portalSignIn(page, student);
      await page.waitForFunction((l) => document.documentElement.lang === l, lang);
      const problems: string[] = [];

      // Home: the next payment and what is owed, in words and the language's money.
      await page.getByRole('heading', { name: tr(lang, 'home.nextDue') }).waitFor();
      const outstanding = await moneyIn(page, lang, 16000);
      await page.getByText(tr(lang, 'home.outstandingText', { amount: outstanding })).waitFor();
      problems.push(...(await phoneProblems(page, `home (${lang})`)));
      await shot(page, `portal-home-${lang}-390`);

      const nav = page.getByRole('navigation', { name: tr(lang, 'nav.label') }).last();
      await nav.getByRole('link', { name: tr(lang, 'nav.courses') }).click();
      await page.getByRole('heading', { name: tr(lang, 'courses.title') }).waitFor();
      const card = page.getByTestId('portal-enrollment').filter({ hasText: courseName });
      await card.waitFor();
      // The first installment is 10,000 of which 4,000 is paid: part paid, said so.
      await card.getByText(tr(lang, 'installments.partPaid'), { exact: true }).waitFor();
      await card.getByText(tr(lang, 'installments.number', { n: 2 })).waitFor();
      problems.push(...(await phoneProblems(page, `courses (${lang})`)));
      await shot(page, `portal-courses-${lang}-390`);

      await nav.getByRole('link', { name: tr(lang, 'nav.payments') }).click();
      await page.getByRole('heading', { name: tr(lang, 'payments.title') }).waitFor();
      const row = page.getByTestId('portal-payment').filter({ hasText: receipt });
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        row.getByRole('link', { name: `${tr(lang, 'payments.downloadShort')} ${receipt}` }).click(),
      ]);
      const file = await download.path();
      expect(fs.readFileSync(file).subarray(0, 5).toString()).toBe('%PDF-');
      problems.push(...(await phoneProblems(page, `payments (${lang})`)));
      await shot(page, `portal-payments-${lang}-390`);

      await page.getByRole('link', { name: tr(lang, 'payments.howToPay') }).click();
      await page.getByRole('heading', { name: tr(lang, 'howToPay.title'), level: 1 }).waitFor();
      problems.push(...(await phoneProblems(page, `how to pay (${lang})`)));

      await nav.getByRole('link', { name: tr(lang, 'nav.profile') }).click();
      await page.getByRole('heading', { name: tr(lang, 'profile.title') }).waitFor();
      await page.getByText(student.email).waitFor();
      problems.push(...(await phoneProblems(page, `profile (${lang})`)));
      await shot(page, `portal-profile-${lang}-390`);

      expect(problems).toEqual([]);
    });

    test(`a patient in ${lang} cancels outside the cut-off, is told whom to call inside it, downloads a receipt`, async () => {
      const { patient, treatment, outside, inside, receipt } = await patientWithAppointments();
      await setLanguage(patient, lang);
      const page = await browser.newPage({ viewport: PHONE });
      await portalSignIn(page, patient);
      await page.waitForFunction((l) => document.documentElement.lang === l, lang);
      const problems: string[] = [];

      // Home names the next appointment: the one inside the cut-off, in about two hours.
      await page
        .getByText(await dateTimeIn(page, lang, inside.start))
        .first()
        .waitFor();

      await page
        .getByRole('navigation', { name: tr(lang, 'nav.label') })
        .last()
        .getByRole('link', { name: tr(lang, 'nav.treatments') })
        .click();
      const booking = page.getByTestId('portal-booking').filter({ hasText: treatment.treatmentName });
      await booking.getByText(tr(lang, 'treatments.sessionsDone_other', { done: 0, count: 10 })).waitFor();
      problems.push(...(await phoneProblems(page, `treatments (${lang})`)));
      await shot(page, `portal-treatments-${lang}-390`);

      // Inside the cut-off there is no cancel button: the button calls the clinic.
      const soon = booking
        .getByTestId('portal-appointment')
        .filter({ hasText: await dateTimeIn(page, lang, inside.start) });
      await soon.waitFor();
      const call = soon.getByRole('link', { name: tr(lang, 'appointment.callToCancel', { phone: CLINIC_PHONE }) });
      await call.waitFor();
      expect(await call.getAttribute('href')).toBe('tel:0112345678');
      expect(await soon.getByRole('button', { name: tr(lang, 'appointment.cancel') }).count()).toBe(0);

      // Outside it the person cancels, with a reason.
      const later = booking
        .getByTestId('portal-appointment')
        .filter({ hasText: await dateTimeIn(page, lang, outside.start) });
      await later.getByRole('button', { name: tr(lang, 'appointment.cancel') }).click();
      const dialog = page.getByRole('dialog', { name: tr(lang, 'appointment.cancelTitle') });
      await dialog.getByLabel(tr(lang, 'appointment.reason')).fill('Travelling that week');
      problems.push(...(await phoneProblems(page, `cancel dialog (${lang})`)));
      await shot(page, `portal-cancel-${lang}-390`);
      await dialog.getByRole('button', { name: tr(lang, 'appointment.confirmCancel') }).click();
      await booking.getByRole('status').getByText(tr(lang, 'appointment.cancelled')).waitFor();
      await expectGone(dialog);
      // It is now among the past appointments, marked cancelled.
      const gone = booking
        .getByTestId('portal-appointment')
        .filter({ hasText: await dateTimeIn(page, lang, outside.start) });
      await gone.getByText(tr(lang, 'appointment.status.cancelled'), { exact: true }).waitFor();

      // The server agrees: cancelled with the person's reason, and the near one refused (409).
      const token = await tokenFor(accounts().superadmin);
      const stored = await api<{ status: string; statusReason: string | null }>(
        'GET',
        `/api/appointments/${outside._id}`,
        { token },
      );
      expect(stored.body.status).toBe('cancelled');
      expect(stored.body.statusReason).toContain('Travelling that week');
      const refused = await api('POST', `/api/portal/appointments/${inside._id}/cancel`, {
        token: await tokenFor(patient),
        body: {},
      });
      expect(refused.status).toBe(409);

      await page
        .getByRole('navigation', { name: tr(lang, 'nav.label') })
        .last()
        .getByRole('link', { name: tr(lang, 'nav.payments') })
        .click();
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('link', { name: `${tr(lang, 'payments.downloadShort')} ${receipt}` }).click(),
      ]);
      expect(
        fs
          .readFileSync(await download.path())
          .subarray(0, 5)
          .toString(),
      ).toBe('%PDF-');
      expect(problems).toEqual([]);
    });
  }

  test('a student whose every installment is overdue is told so on Home, not that nothing is due', async () => {
    const branch = await factory.branch({ name: unique('Portal Late') });
    const student = await person('student', branch._id);
    const course = await factory.course({ duration: '2 months', totalFee: 10000, installments: 2, admissionFee: 0 });
    // Enrolled five months ago on the organisation's clock: both installments are past due.
    const enrolledOn = addToDate(todayIn(TZ), { months: -5 });
    await factory.enrollment(course._id, 'installment', student.email, enrolledOn);
    const page = await browser.newPage({ viewport: PHONE });
    await portalSignIn(page, student);
    await page.getByRole('heading', { name: tr('en', 'home.nextDue') }).waitFor();
    await page.getByText(tr('en', 'home.noDueAhead')).waitFor();
    expect(await page.getByText(tr('en', 'home.nothingDue')).count()).toBe(0);
    const overdue = await moneyIn(page, 'en', 10000);
    // The overdue tile names the whole amount (the text up to its date).
    const late = tr('en', 'home.overdueText', { amount: overdue, date: '\u0000' }).split('\u0000')[0]!;
    await page.getByText(late).first().waitFor();
    await page.close();
  });

  test('the language switch saves the language to the profile, and the portal opens in it next time', async () => {
    const { student } = await studentWithCourse();
    await setLanguage(student, 'en');
    const page = await browser.newPage({ viewport: PHONE });
    await portalSignIn(page, student);
    await page.getByRole('heading', { name: tr('en', 'home.nextDue') }).waitFor();
    await switchTo(page, 'ta');
    await page.getByRole('heading', { name: tr('ta', 'home.nextDue') }).waitFor();
    await expect
      .poll(
        async () =>
          (await api<{ language: string }>('GET', '/api/portal/profile', { token: await tokenFor(student) })).body
            .language,
      )
      .toBe('ta');

    // Another device (no storage) opens in Tamil from the profile.
    const other = await browser.newPage({ viewport: PHONE });
    await portalSignIn(other, student);
    await other.getByRole('heading', { name: tr('ta', 'home.nextDue') }).waitFor();
  });

  test('signs in with a code sent by e-mail, on a phone, with the keyboard', async () => {
    const { student } = await studentWithCourse();
    const page = await browser.newPage({ viewport: PHONE });
    await page.goto('/portal/sign-in');
    await page.getByRole('button', { name: tr('en', 'signIn.withCode') }).click();
    const problems = await phoneProblems(page, 'sign-in by code');
    await page.getByLabel(tr('en', 'signIn.email'), { exact: true }).fill(student.email);
    await page.keyboard.press('Enter');
    await page.getByText(tr('en', 'signIn.codeSent', { email: student.email })).waitFor();
    // A wrong code is refused in words, not with a page error.
    await page.getByLabel(tr('en', 'signIn.code')).fill('000000');
    await page.keyboard.press('Enter');
    const rows = async () =>
      sql<
        Array<{ text: string }>
      >`select text from email_outbox where "to" = ${student.email} order by created_at desc limit 1`;
    await expect.poll(async () => /\b\d{6}\b/.test((await rows())[0]?.text ?? '')).toBe(true);
    const code = /\b(\d{6})\b/.exec((await rows())[0]!.text)![1]!;
    if (code !== '000000') await page.getByText(tr('en', 'refusal.code_invalid')).waitFor();
    await page.getByLabel(tr('en', 'signIn.code')).fill(code);
    await page.getByRole('button', { name: tr('en', 'signIn.verify') }).press('Enter');
    await page.waitForURL((url) => url.pathname === '/portal');
    await page.getByRole('heading', { name: tr('en', 'home.nextDue') }).waitFor();
    expect(problems).toEqual([]);
    await shot(page, 'portal-signed-in-by-code-390');
  });

  test('a portal role signing in on /login lands on /portal, and a back-office path sends it there', async () => {
    const page = await browser.newPage();
    await signIn(page, accounts().customer);
    await page.waitForURL((url) => url.pathname === '/portal');
    await page.goto('/branch');
    await page.waitForURL((url) => url.pathname === '/portal');
    // Signing out leaves the portal for its sign-in screen, and the session is gone.
    await page.getByRole('button', { name: tr('en', 'app.signOut') }).click();
    await page.waitForURL((url) => url.pathname === '/portal/sign-in');
    await page.goto('/portal/payments');
    await page.waitForURL((url) => url.pathname === '/portal/sign-in');
  });

  test('staff who sign in on the portal go to the back office', async () => {
    const page = await browser.newPage();
    await portalSignIn(page, accounts().admin, 'en', '/');
    await page.getByTestId('sidebar').waitFor();
  });

  test('the server answers /portal and every path below it with the portal page, under the same policy', async () => {
    const page = async (p: string) => {
      const res = await fetch(e2eEnv().baseUrl + p);
      return { html: await res.text(), csp: res.headers.get('content-security-policy') ?? '' };
    };
    for (const p of ['/portal', '/portal/', '/portal/courses', '/portal/sign-in?method=code', '/portal/no/such/page']) {
      const answer = await page(p);
      expect(answer.html, p).toMatch(/<script type="module"[^>]*src="\/assets\/portal-/);
      expect(answer.csp, p).toContain("script-src 'self'");
    }
    // Only the portal's own paths: a look-alike is the back office's page.
    for (const p of ['/portals', '/portal.htmlx', '/branch'])
      expect((await page(p)).html, p).not.toMatch(/assets\/portal-/);
  });

  test('loads at most 150 kB of gzip script before its first screen', async () => {
    const page = await browser.newPage({ viewport: PHONE });
    const scripts = new Set<string>();
    page.on('request', (req) => {
      if (req.resourceType() === 'script') scripts.add(new URL(req.url()).pathname);
    });
    await page.goto('/portal/sign-in');
    await page.getByRole('heading', { name: tr('en', 'signIn.title') }).waitFor();
    // The size on the wire to a browser that accepts gzip, compressed as the build compresses it.
    const dist = path.resolve('dist/client');
    let bytes = 0;
    for (const s of scripts) bytes += zlib.gzipSync(fs.readFileSync(path.join(dist, s)), { level: 9 }).length;
    expect(scripts.size).toBeGreaterThan(0);
    expect(bytes).toBeLessThanOrEqual(150 * 1024);
    // None of the back-office's screens came with it.
    expect([...scripts].filter((s) => /dashboard|calendar|reports/i.test(s))).toEqual([]);
  });

  test('every screen before sign-in has no sideways scroll, small target or serious axe finding', async () => {
    const page = await browser.newPage({ viewport: PHONE });
    const problems: string[] = [];
    for (const lang of ['en', 'si', 'ta'] as const) {
      await page.goto('/portal/sign-in');
      await page.locator('header select').selectOption(lang);
      await page.getByRole('heading', { name: tr(lang, 'signIn.title') }).waitFor();
      problems.push(...(await phoneProblems(page, `sign-in (${lang})`)));
      await shot(page, `portal-sign-in-${lang}-390`);
    }
    await page.goto('/portal/invitation?token=not-a-real-token');
    await page.getByRole('heading', { name: tr('ta', 'invitation.title') }).waitFor();
    problems.push(...(await phoneProblems(page, 'invitation')));
    // An invitation that is not valid: the server's refusal (its code) in the page's language.
    await page.getByLabel(tr('ta', 'invitation.password'), { exact: true }).fill('a-new-password');
    await page.getByLabel(tr('ta', 'invitation.confirm')).fill('a-new-password');
    await page.getByRole('button', { name: tr('ta', 'invitation.submit') }).click();
    await page.getByRole('alert').getByText(tr('ta', 'refusal.invitation_invalid')).waitFor();
    expect(problems).toEqual([]);
  });

  test('looks right at 1360 px: the sections in the header, no sideways scroll', async () => {
    const { student } = await studentWithCourse();
    await setLanguage(student, 'si');
    const page = await browser.newPage({ viewport: DESKTOP });
    await portalSignIn(page, student);
    const header = page.getByRole('banner').getByRole('navigation', { name: tr('si', 'nav.label') });
    await header.getByRole('link', { name: tr('si', 'nav.courses') }).waitFor();
    for (const [href, name] of [
      ['/portal', 'home'],
      ['/portal/courses', 'courses'],
      ['/portal/payments', 'payments'],
      ['/portal/profile', 'profile'],
    ] as const) {
      await page.goto(href);
      await settle(page);
      expect(await pageOverflow(page), href).toBe(0);
      await shot(page, `portal-${name}-si-1360`);
    }
  });

  test('the profile saves phone, address and opt-outs; name and e-mail stay read-only', async () => {
    const { student } = await studentWithCourse();
    await setLanguage(student, 'en');
    const page = await browser.newPage({ viewport: PHONE });
    await portalSignIn(page, student);
    await page.goto('/portal/profile');
    await page.getByLabel(tr('en', 'profile.phone'), { exact: true }).fill('0771234567');
    await page.getByLabel(tr('en', 'profile.address')).fill('12 Temple Road\nKandy');
    await page.getByLabel(tr('en', 'profile.optOutSms')).check();
    await page.getByRole('button', { name: tr('en', 'profile.save') }).click();
    await page.getByText(tr('en', 'profile.saved')).waitFor();
    expect(await page.getByRole('textbox', { name: tr('en', 'profile.name') }).count()).toBe(0);
    const stored = await api<{ phone: string; address: string; optOut: { sms: boolean; email: boolean } }>(
      'GET',
      '/api/portal/profile',
      { token: await tokenFor(student) },
    );
    expect(stored.body.address).toBe('12 Temple Road\nKandy');
    expect(stored.body.optOut).toEqual({ email: false, sms: true });
    expect(stored.body.phone).toMatch(/771234567/);
  });

  test('in Sinhala, a phone number the server cannot read is refused in Sinhala', async () => {
    const { student } = await studentWithCourse();
    await setLanguage(student, 'si');
    const page = await browser.newPage({ viewport: PHONE });
    await portalSignIn(page, student);
    await page.goto('/portal/profile');
    await page.getByLabel(tr('si', 'profile.phone'), { exact: true }).fill('12');
    await page.getByRole('button', { name: tr('si', 'profile.save') }).click();
    // The server answers 400 with the code invalid_input for the phone: the catalogue's text, not its English.
    await page.getByRole('alert').getByText(tr('si', 'refusal.invalid_input.phone')).waitFor();
    expect(await page.getByText('is not a valid phone number').count()).toBe(0);
    await shot(page, 'portal-profile-refused-si-390');
  });
});
