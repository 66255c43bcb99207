import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enrollmentInstallments, enrollments, payments } from '../../src/server/db/schema';
import { seedDemoCourses } from '../../src/server/seed/demo-courses';
import { seedDemoPayments } from '../../src/server/seed/demo-payments';
import { seedDemoTreatments } from '../../src/server/seed/demo-treatments';
import { seedDemoBranchesAndUsers } from '../../src/server/seed/demo-users';
import { addToDate, todayIn } from '../../src/shared/calendar';
import type { TStatement } from '../../src/shared/schemas/statements';
import { startTestApp, type TestApp } from '../helpers/app';
import { waitForEmail, withoutQuietHours } from '../helpers/email';
import { makeBranch, makeUser, postCourse, type MadeUser } from '../helpers/factories';
import { readPdfText } from '../helpers/report-factories';

/** docs/users.md#statement over REST and tRPC, on real PostgreSQL. */
let t: TestApp;
let admin: MadeUser & { token: string };
let today: string;

beforeAll(async () => {
  // The dashboard's figures are compared with the statements': read afresh, never reused.
  t = await startTestApp({ DASHBOARD_CACHE_SECONDS: 0 });
  await withoutQuietHours(t.deps.db);
  admin = await t.userWithSession('admin');
  today = todayIn(t.deps.config.TIME_ZONE);
});
afterAll(() => t?.close());

const rows = <T>(r: unknown): T[] => (Array.isArray(r) ? (r as T[]) : ((r as { rows: T[] }).rows ?? []));
const cents = (n: number) => Math.round(n * 100);

/**
 * The ledger's own figures for one person, per currency, in minor units: the item amounts (a
 * cancelled booking's instalments at what was paid on them), the valid allocations to those items,
 * and the unpaid part of the active records' items due before today.
 */
async function ledgerFigures(userId: string) {
  const items = rows<{ currency: string; charged: string; paid: string; overdue: string }>(
    await t.deps.db.execute(sql`
      select currency, sum(amount)::bigint as charged, sum(paid)::bigint as paid,
        coalesce(sum(amount - paid) filter (where active and due < ${today}::date), 0)::bigint as overdue
      from (
        select e.currency, e.admission_fee_minor as amount, e.admission_fee_paid_minor as paid, e.enrolled_on as due,
          e.status = 'active' as active
        from enrollments e where e.user_id = ${userId}
        union all
        select e.currency, i.amount_minor, i.amount_paid_minor, i.due_date, e.status = 'active'
        from enrollment_installments i join enrollments e on e.id = i.enrollment_id where e.user_id = ${userId}
        union all
        select b.currency, case when b.status = 'cancelled' then i.amount_paid_minor else i.amount_minor end,
          i.amount_paid_minor, i.due_date, b.status = 'active'
        from booking_installments i join treatment_bookings b on b.id = i.booking_id where b.user_id = ${userId}
      ) x group by currency order by currency`),
  );
  const allocated = rows<{ currency: string; minor: string }>(
    await t.deps.db.execute(sql`
      select p.currency, sum(a.amount_minor)::bigint as minor
      from payment_allocations a join payments p on p.id = a.payment_id
      where p.status = 'valid' and (
        a.enrollment_id in (select id from enrollments where user_id = ${userId})
        or a.booking_id in (select id from treatment_bookings where user_id = ${userId}))
      group by p.currency`),
  );
  return items.map((i) => ({
    currency: i.currency,
    charged: Number(i.charged),
    itemsPaid: Number(i.paid),
    allocated: Number(allocated.find((a) => a.currency === i.currency)?.minor ?? 0),
    overdue: Number(i.overdue),
  }));
}

/** Each line's balance is the one before it in its currency plus its amount; the last is the total's. */
function expectRunningBalances(s: TStatement) {
  const last = new Map<string, number>();
  for (const l of s.lines) {
    const before = last.get(l.currency) ?? 0;
    const opening = l.description === 'Balance brought forward';
    expect(cents(l.balance)).toBe(opening ? cents(l.amount) : before + cents(l.amount));
    last.set(l.currency, cents(l.balance));
  }
  for (const total of s.totals) expect(last.get(total.currency) ?? 0).toBe(cents(total.balance));
}

describe('statement over the demo data', () => {
  it("equals the ledger's figures for every person, and all of them together the dashboard's", async () => {
    await seedDemoBranchesAndUsers(t.deps);
    await seedDemoCourses(t.deps);
    await seedDemoTreatments(t.deps);
    await seedDemoPayments(t.deps);
    const people = rows<{ id: string }>(
      await t.deps.db.execute(
        sql`select distinct user_id as id from enrollments where user_id is not null
            union select distinct user_id from treatment_bookings where user_id is not null`,
      ),
    );
    expect(people.length).toBeGreaterThan(3);
    const sum = new Map<string, { balance: number; overdue: number }>();
    let linesSeen = 0;
    for (const { id } of people) {
      const res = await t.api<TStatement>('GET', `/api/users/${id}/statement`, { token: admin.token });
      expect(res.status).toBe(200);
      const s = res.body;
      linesSeen += s.lines.length;
      // A currency the person has only zero-amount items in has no line, so no total.
      const ledger = (await ledgerFigures(id)).filter((l) => l.charged > 0 || l.allocated > 0);
      expect(s.totals.map((x) => x.currency)).toEqual(ledger.map((l) => l.currency));
      for (const l of ledger) {
        const total = s.totals.find((x) => x.currency === l.currency)!;
        // The ledger agrees with itself: what the items hold is what the valid allocations say.
        expect(l.itemsPaid).toBe(l.allocated);
        expect({
          charged: cents(total.charged),
          paid: cents(total.paid),
          balance: cents(total.balance),
          overdue: cents(total.overdue),
        }).toEqual({ charged: l.charged, paid: l.allocated, balance: l.charged - l.allocated, overdue: l.overdue });
        const acc = sum.get(l.currency) ?? { balance: 0, overdue: 0 };
        sum.set(l.currency, { balance: acc.balance + l.charged - l.allocated, overdue: acc.overdue + l.overdue });
      }
      expectRunningBalances(s);
    }
    expect(linesSeen).toBeGreaterThan(people.length);
    // Nobody's records were deleted, so every owed amount is someone's: the dashboard's sums are theirs.
    const dash = await t.trpc(admin.token).payments.dashboard.query({});
    for (const [currency, { balance, overdue }] of sum) {
      expect(cents(dash.outstanding.find((o) => o.currency === currency)?.amount ?? 0)).toBe(balance);
      expect(cents(dash.overdue.find((o) => o.currency === currency)?.amount ?? 0)).toBe(overdue);
    }
  });
});

describe('statement lines', () => {
  let student: MadeUser;
  let enrollmentId: string;
  /** The enrolment day and the installments' due dates, as stored. */
  let due: string[] = [];

  beforeAll(async () => {
    const courseId = await postCourse(t, admin.token, 'Statement', {
      totalFee: 3000,
      admissionFee: 500,
      installments: 3,
    });
    student = await makeUser(t.deps.db, { role: 'student', fullName: 'Nimal Perera' });
    const api = t.trpc(admin.token);
    enrollmentId = (await api.enrollments.create.mutate({ userId: student.id, courseId, paymentType: 'installment' }))
      ._id;
    // Time passes: the enrolment was made two months ago (its plan moves with it).
    await t.deps.db
      .update(enrollments)
      .set({ enrolledOn: addToDate(today, { months: -2 }) })
      .where(eq(enrollments.id, enrollmentId));
    await t.deps.db
      .update(enrollmentInstallments)
      .set({ dueDate: sql`${enrollmentInstallments.dueDate} - interval '2 months'` })
      .where(eq(enrollmentInstallments.enrollmentId, enrollmentId));
    due = (await api.enrollments.get.query({ id: enrollmentId })).installments.map((i) => i.dueDate.slice(0, 10));
    expect(due[0]).toBe(addToDate(today, { months: -2 }));
    expect(due[2]).toBe(today);
    // Ten in the morning in Colombo on the day.
    const at = (d: string, days = 0) => new Date(`${addToDate(d, { days })}T10:00:00+05:30`).toISOString();
    // On the enrolment day the admission fee and the first installment; after the second fell due,
    // a cheque for part of it (which bounces, today) and then a card payment.
    await api.payments.record.mutate({ enrollmentId, amount: 1500, method: 'cash', receivedAt: at(due[0]!) });
    const second = await api.payments.record.mutate({
      enrollmentId,
      amount: 400,
      method: 'cheque',
      reference: 'CHQ-77',
      receivedAt: at(due[1]!, 2),
    });
    await api.payments.record.mutate({ enrollmentId, amount: 300, method: 'card', receivedAt: at(due[1]!, 3) });
    await api.payments.void.mutate({ id: second._id, reason: 'cheque bounced' });
  });

  it('answers charges, payments and voids in date order, charges first on a day, with running balances', async () => {
    const res = await t.api<TStatement>('GET', `/api/users/${student.id}/statement`, { token: admin.token });
    expect(res.status).toBe(200);
    const s = res.body;
    expect(s.person).toEqual({ _id: student.id, fullName: 'Nimal Perera', email: student.email });
    const voided = s.lines.find((l) => l.kind === 'void')!;
    const bounced = s.lines.find((l) => l.kind === 'payment' && l.receiptNumber === voided.receiptNumber)!;
    expect(bounced.description).toMatch(/^Payment, Cheque \(ref\. CHQ-77\): Statement /);
    expect(voided.description).toMatch(/^Payment voided \(cheque bounced\): Statement /);
    // The cheque bounced today: its void is today's line, after today's charge.
    expect(
      s.lines.map((l) => [l.date, l.kind, l.description.replace(/: Statement \w+$/, ''), l.amount, l.balance]),
    ).toEqual([
      [due[0], 'charge', 'Admission fee', 500, 500],
      [due[0], 'charge', 'Installment 1 of 3', 1000, 1500],
      [due[0], 'payment', 'Payment, Cash', -1500, 0],
      [due[1], 'charge', 'Installment 2 of 3', 1000, 1000],
      [addToDate(due[1]!, { days: 2 }), 'payment', 'Payment, Cheque (ref. CHQ-77)', -400, 600],
      [addToDate(due[1]!, { days: 3 }), 'payment', 'Payment, Card', -300, 300],
      [today, 'charge', 'Installment 3 of 3', 1000, 1300],
      [today, 'void', 'Payment voided (cheque bounced)', 400, 1700],
    ]);
    expect(s.totals).toEqual([{ currency: 'LKR', charged: 3500, paid: 1800, balance: 1700, overdue: 700 }]);
    for (const l of s.lines) {
      if (l.kind === 'charge') expect(l.receiptNumber).toBeUndefined();
      else expect(l.receiptNumber).toMatch(/^GEN-\d{4}-\d{6}$/);
    }
  });

  it('with from, opens on the balance brought forward; to bounds the lines and the closing balance', async () => {
    const from = due[1]!;
    const to = addToDate(from, { days: 2 });
    const res = await t.api<TStatement>('GET', `/api/users/${student.id}/statement?from=${from}&to=${to}`, {
      token: admin.token,
    });
    expect(res.status).toBe(200);
    expect(
      res.body.lines.map((l) => [l.date, l.kind, l.description.replace(/: Statement \w+$/, ''), l.amount, l.balance]),
    ).toEqual([
      [from, 'charge', 'Balance brought forward', 0, 0],
      [from, 'charge', 'Installment 2 of 3', 1000, 1000],
      [to, 'payment', 'Payment, Cheque (ref. CHQ-77)', -400, 600],
    ]);
    // Overdue is what is overdue today, whatever the period.
    expect(res.body.totals).toEqual([{ currency: 'LKR', charged: 1000, paid: 400, balance: 600, overdue: 700 }]);
    expectRunningBalances(res.body);
  });

  it('is the same over tRPC', async () => {
    const rest = await t.api<TStatement>('GET', `/api/users/${student.id}/statement?from=${due[1]}`, {
      token: admin.token,
    });
    const trpc = await t.trpc(admin.token).statements.get.query({ userId: student.id, from: due[1] });
    expect(trpc).toEqual(rest.body);
  });

  it('prints a PDF with the organisation, the person and the lines', async () => {
    const res = await fetch(`${t.baseUrl}/api/users/${student.id}/statement/pdf`, {
      headers: { authorization: `Bearer ${admin.token}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="statement-Nimal-Perera-.*\.pdf"$/);
    const text = (await readPdfText(Buffer.from(await res.arrayBuffer()))).join('\n');
    expect(text).toContain(t.deps.config.APP_NAME);
    expect(text).toContain('ACCOUNT STATEMENT');
    expect(text).toContain('Nimal Perera');
    expect(text).toContain('Installment 2 of 3');
    expect(text).toContain('cheque bounced');
  });

  it('e-mails the statement through the job worker (202)', async () => {
    const res = await t.api('POST', `/api/users/${student.id}/statement/email`, {
      token: admin.token,
      body: { from: due[1] },
    });
    expect(res.status).toBe(202);
    // No e-mail provider in the tests: the answer says it waits in the outbox (email-delivery.test.ts).
    expect(res.body).toMatchObject({
      delivery: 'outbox',
      message: `The statement for ${student.email} was queued to the outbox: no e-mail provider is configured, so it is not sent.`,
    });
    const mail = await waitForEmail(t.deps.db, student.email);
    expect(mail.subject).toContain('Your account statement');
    expect(mail.text).toContain('Dear Nimal Perera,');
    expect(mail.text).toContain('Balance brought forward');
    expect(mail.text).toContain('Installment 3 of 3');
    expect(mail.text).not.toContain('Admission fee');
  });
});

describe('statement audit entries', () => {
  it('records each PDF download and each e-mail, with the period, and not a plain read', async () => {
    const person = await makeUser(t.deps.db, { role: 'student', fullName: 'Audited Person' });
    const history = async () =>
      (await t.trpc(admin.token).audit.forEntity.query({ entityType: 'statement', entityId: person.id })).items;
    expect((await t.api('GET', `/api/users/${person.id}/statement`, { token: admin.token })).status).toBe(200);
    expect(await history()).toEqual([]);

    const pdf = await fetch(`${t.baseUrl}/api/users/${person.id}/statement/pdf?from=2026-01-01`, {
      headers: { authorization: `Bearer ${admin.token}` },
    });
    expect(pdf.status).toBe(200);
    await pdf.arrayBuffer();
    const sent = await t.api('POST', `/api/users/${person.id}/statement/email`, { token: admin.token, body: {} });
    expect(sent.status).toBe(202);

    const entries = await history();
    expect(entries.map((e) => [e.action, e.summary, e.actor?.id])).toEqual([
      ['email', `E-mailed the statement of Audited Person to ${person.email}`, admin.id],
      ['download', 'Downloaded the statement of Audited Person for 2026-01-01 to today', admin.id],
    ]);
    expect(entries[0]!.changes).toContainEqual({ field: 'email', before: null, after: person.email });
    expect(entries[1]!.changes).toContainEqual({ field: 'from', before: null, after: '2026-01-01' });
    // A refused download (bad period) records nothing.
    expect((await t.api('GET', `/api/users/${person.id}/statement/pdf?from=nope`, { token: admin.token })).status).toBe(
      400,
    );
    expect(await history()).toHaveLength(2);
  });
});

describe('statement access and refusals', () => {
  it('is for staff only: 401 signed out, 403 for others, over REST and tRPC', async () => {
    const person = await makeUser(t.deps.db, { role: 'student' });
    const student = await t.userWithSession('student');
    expect((await t.api('GET', `/api/users/${person.id}/statement`)).status).toBe(401);
    for (const path of ['statement', 'statement/pdf']) {
      const res = await t.api('GET', `/api/users/${person.id}/${path}`, { token: student.token });
      expect(res.status).toBe(403);
    }
    expect((await t.api('POST', `/api/users/${person.id}/statement/email`, { token: student.token })).status).toBe(403);
    await expect(t.trpc(student.token).statements.get.query({ userId: person.id })).rejects.toMatchObject({
      data: { httpStatus: 403 },
    });
    await expect(t.trpc(student.token).statements.email.mutate({ userId: student.id })).rejects.toMatchObject({
      data: { httpStatus: 403 },
    });
    const manager = await t.userWithSession('manager');
    expect((await t.api('GET', `/api/users/${person.id}/statement`, { token: manager.token })).status).toBe(200);
  });

  it('answers 404 for an unknown or malformed user', async () => {
    for (const id of ['3f0e8a52-1b7c-4d7e-9a43-111111111111', 'not-a-uuid']) {
      const res = await t.api('GET', `/api/users/${id}/statement`, { token: admin.token });
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('User not found.');
      expect((await t.api('GET', `/api/users/${id}/statement/pdf`, { token: admin.token })).status).toBe(404);
      expect((await t.api('POST', `/api/users/${id}/statement/email`, { token: admin.token })).status).toBe(404);
    }
  });

  it.each([
    ['from=2026-02-30', 'From must be a date (YYYY-MM-DD) between 1900 and 2100.'],
    ['to=yesterday', 'To must be a date (YYYY-MM-DD) between 1900 and 2100.'],
    ['from=2026-03-02&to=2026-03-01', 'From must be on or before To.'],
    ['from=1800-01-01', 'From must be a date (YYYY-MM-DD) between 1900 and 2100.'],
  ])('refuses %s with 400 "%s"', async (query, message) => {
    const person = await makeUser(t.deps.db, { role: 'student' });
    for (const path of ['statement', 'statement/pdf']) {
      const res = await t.api('GET', `/api/users/${person.id}/${path}?${query}`, { token: admin.token });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(message);
    }
  });

  it("limits a manager to their own branch's people when the setting is on", async () => {
    const home = await makeBranch(t.deps.db);
    const other = await makeBranch(t.deps.db);
    const manager = await t.userWithSession('manager', { branchId: home.id });
    const ours = await makeUser(t.deps.db, { role: 'student', branchId: home.id });
    const theirs = await makeUser(t.deps.db, { role: 'student', branchId: other.id });
    const access = (on: boolean) => t.trpc(admin.token).settings.updateAccess.mutate({ managersOwnBranchOnly: on });
    await access(true);
    try {
      expect((await t.api('GET', `/api/users/${ours.id}/statement`, { token: manager.token })).status).toBe(200);
      const refused = await t.api('GET', `/api/users/${theirs.id}/statement`, { token: manager.token });
      expect(refused.status).toBe(404);
      expect(refused.body.message).toBe('User not found.');
      expect((await t.api('GET', `/api/users/${theirs.id}/statement`, { token: admin.token })).status).toBe(200);
    } finally {
      await access(false);
    }
  });

  it('leaves payments of deleted records out with their charges', async () => {
    const person = await makeUser(t.deps.db, { role: 'student' });
    const courseId = await postCourse(t, admin.token, 'Gone', { totalFee: 1000, admissionFee: 0, installments: 1 });
    const api = t.trpc(admin.token);
    const e = await api.enrollments.create.mutate({ userId: person.id, courseId, paymentType: 'full' });
    await api.payments.record.mutate({ enrollmentId: e._id, amount: 250, method: 'cash' });
    await api.enrollments.delete.mutate({ id: e._id, userId: person.id });
    const [kept] = await t.deps.db.select().from(payments).where(eq(payments.payerId, person.id));
    expect(kept?.enrollmentId).toBeNull();
    const res = await t.api<TStatement>('GET', `/api/users/${person.id}/statement`, { token: admin.token });
    expect(res.body).toMatchObject({ totals: [], lines: [] });
  });
});

describe('statement on the embedded database', () => {
  it('reads the same way on PGlite, as `npm start` runs without DATABASE_URL', async () => {
    const e = await startTestApp({}, { embedded: true });
    try {
      const staff = await e.userWithSession('admin');
      const person = await makeUser(e.deps.db, { role: 'student' });
      const courseId = await postCourse(e, staff.token, 'Embedded', {
        totalFee: 2000,
        admissionFee: 250,
        installments: 2,
      });
      const api = e.trpc(staff.token);
      const en = await api.enrollments.create.mutate({ userId: person.id, courseId, paymentType: 'installment' });
      const paid = await api.payments.record.mutate({ enrollmentId: en._id, amount: 600.5, method: 'cash' });
      await api.payments.record.mutate({ enrollmentId: en._id, amount: 100, method: 'card' });
      await api.payments.void.mutate({ id: paid._id, reason: 'wrong amount' });
      const s = await api.statements.get.query({ userId: person.id });
      expect(s.totals).toEqual([{ currency: 'LKR', charged: 2250, paid: 100, balance: 2150, overdue: 0 }]);
      expect(s.lines.map((l) => l.kind)).toEqual(['charge', 'charge', 'payment', 'payment', 'void', 'charge']);
      expectRunningBalances(s);
    } finally {
      await e.close();
    }
  });
});
