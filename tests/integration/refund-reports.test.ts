import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app';
import { download, readPdfText, readXlsx } from '../helpers/report-factories';
import { makeBranch, makeUser, postCourse, type MadeUser } from '../helpers/factories';

/**
 * The reports of money changed after the fact (docs/reports.md#discounts-refunds-and-net) on a
 * real PostgreSQL: the discounts and scholarships given, by reason, scheme, branch and month, the
 * refunds by method and branch, and the revenue report's collected, refunded and net, each equal
 * to what the ledger's own entries add up to.
 */
let t: TestApp;
let admin: MadeUser & { token: string };
let branchId: string;
let courseId: string;
let courseName: string;

const cents = (n: number) => Math.round(n * 100);

async function enrol() {
  const who = await makeUser(t.deps.db, { role: 'student', branchId });
  const res = await t.api('POST', '/api/enrollments', {
    token: admin.token,
    body: { email: who.email, courseId, paymentType: 'installment' },
  });
  expect(res.status).toBe(201);
  return res.body as { _id: string; installments: Array<{ _id: string }> };
}
const adjust = async (id: string, body: Record<string, unknown>) => {
  const res = await t.api('POST', `/api/enrollments/${id}/adjustments`, { token: admin.token, body });
  expect(res.status).toBe(201);
  return res.body as { _id: string; total: number };
};
const pay = async (enrollmentId: string, amount: number, method: string) => {
  const res = await t.api('POST', '/api/payments', { token: admin.token, body: { enrollmentId, amount, method } });
  expect(res.status).toBe(201);
  return res.body as { _id: string };
};
const refund = async (paymentId: string, amount: number, method: string) => {
  const res = await t.api('POST', `/api/payments/${paymentId}/refunds`, {
    token: admin.token,
    body: { amount, method, reason: 'Reported' },
  });
  expect(res.status).toBe(201);
};

beforeAll(async () => {
  t = await startTestApp();
  branchId = (await makeBranch(t.deps.db, { name: 'Kandy' })).id;
  admin = await t.userWithSession('admin', { branchId });
  courseId = await postCourse(t, admin.token, 'Reported', { totalFee: 30000, admissionFee: 3000, installments: 3 });
  courseName = (await t.api('GET', `/api/course/${courseId}`, { token: admin.token })).body.courseName as string;
});
afterAll(() => t.close());

describe('reports of discounts, scholarships and refunds', () => {
  it('group what was given and given back as the ledger holds it, and the revenue report nets refunds', async () => {
    const scheme = await t.api('POST', '/api/scholarship-schemes', {
      token: admin.token,
      body: { name: `Sibling ${courseName}`, defaultPercent: 10 },
    });
    expect(scheme.status).toBe(201);
    const [a, b, c] = [await enrol(), await enrol(), await enrol()];
    await adjust(a._id, { kind: 'scholarship', schemeId: scheme.body._id, reason: 'Sibling' });
    await adjust(b._id, { kind: 'discount', amount: 1500, itemId: 'admission_fee', reason: 'Early bird' });
    await adjust(c._id, { kind: 'discount', amount: 500.25, reason: 'Early bird' });
    const revoked = await adjust(c._id, { kind: 'write_off', itemId: c.installments[2]!._id, reason: 'Bad debt' });
    const revoke = await t.api('POST', `/api/adjustments/${revoked._id}/revoke`, {
      token: admin.token,
      body: { reason: 'Paid after all' },
    });
    expect(revoke.status).toBe(200);
    const pa = await pay(a._id, 8000, 'cash');
    const pb = await pay(b._id, 5000.5, 'card');
    await refund(pa._id, 2000, 'cash');
    await refund(pa._id, 999.99, 'cash');
    await refund(pb._id, 1000, 'card');

    // The summary: only what is in force, grouped by kind, scheme and reason; refunds by method.
    const summary = await t.api('GET', `/api/adjustments/summary?branchId=${branchId}`, { token: admin.token });
    expect(summary.status).toBe(200);
    type Group = { kind: string; scheme: string | null; reason: string; amount: number; count: number };
    const groups = (summary.body.adjustments as Group[]).map((g) => [g.kind, g.scheme, g.reason, g.amount, g.count]);
    expect(groups).toEqual(
      expect.arrayContaining([
        ['scholarship', `Sibling ${courseName}`, 'Sibling', 3000, 1],
        ['discount', null, 'Early bird', 2000.25, 2],
      ]),
    );
    expect(groups).toHaveLength(2);
    // The same as every entry in force, added up.
    const listed = await t.api('GET', `/api/adjustments?branchId=${branchId}&status=applied&limit=200`, {
      token: admin.token,
    });
    const entries = (listed.body.data as Array<{ total: number }>).reduce((s, x) => s + cents(x.total), 0);
    expect((summary.body.adjustments as Group[]).reduce((s, g) => s + cents(g.amount), 0)).toBe(entries);

    type RefundGroup = { method: string; amount: number; count: number; branch: { name: string } | null };
    const byMethod = (summary.body.refunds as RefundGroup[]).map((r) => [r.method, r.amount, r.count, r.branch?.name]);
    expect(byMethod).toEqual(
      expect.arrayContaining([
        ['cash', 2999.99, 2, 'Kandy'],
        ['card', 1000, 1, 'Kandy'],
      ]),
    );
    const refunds = await t.api('GET', `/api/refunds?branchId=${branchId}`, { token: admin.token });
    expect(refunds.body.totals).toEqual([{ currency: 'LKR', amount: 3999.99, count: 3 }]);

    // The revenue report: collected is every payment received, net what the items hold paid.
    const revenue = await t.api('GET', '/api/course-reports/revenue?format=json', { token: admin.token });
    expect(revenue.status).toBe(200);
    const row = (revenue.body.data as Array<Record<string, number | string>>).find((r) => r.name === courseName);
    expect(row).toMatchObject({ count: 3, collected: 13000.5, refunded: 3999.99, net: 9000.51 });
    let paid = 0;
    let owed = 0;
    for (const e of [a, b, c]) {
      const got = await t.api('GET', `/api/enrollments/${e._id}`, { token: admin.token });
      paid += cents(got.body.paidAmount);
      owed += cents(got.body.outstandingAmount);
    }
    expect(cents(row!.net as number)).toBe(paid);
    expect(cents(row!.outstanding as number)).toBe(owed);
    expect(cents(row!.expected as number)).toBe(paid + owed);

    // The files carry the same columns.
    const file = await download(t.baseUrl, 'GET', '/api/course-reports/revenue', { token: admin.token });
    const { rows } = await readXlsx(file.bytes);
    expect(rows[0]).toEqual([
      'Course',
      'Category',
      'Currency',
      'Enrollments',
      'Billed',
      'Collected',
      'Refunded',
      'Net',
      'Outstanding',
    ]);
    const line = rows.find((r) => r[0] === courseName);
    expect(line?.slice(5, 8)).toEqual([13000.5, 3999.99, 9000.51]);
    const pdf = await download(t.baseUrl, 'GET', '/api/course-reports/revenue?format=pdf', { token: admin.token });
    const text = (await readPdfText(pdf.bytes)).join(' ');
    expect(text).toContain('Refunded');
    expect(text).toContain('3,999.99');
    expect(text).toContain('9,000.51');
  });
});
