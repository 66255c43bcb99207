import { createTRPCClient, httpLink } from '@trpc/client';
import ExcelJS from 'exceljs';
import { asc, eq, sql } from 'drizzle-orm';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  auditLog,
  courses,
  emailOutbox,
  passwordResets,
  sessions,
  treatments,
  users,
} from '../../src/server/db/schema';
import { sessionIdFromToken } from '../../src/server/auth/sessions';
import { recordAudit } from '../../src/server/domains/audit/audit.service';
import type { AppRouter } from '../../src/server/trpc/root';
import type { AuditChange } from '../../src/shared/audit';
import { ROLES, type Role } from '../../src/shared/roles';
import { startTestApp, type TestApp } from '../helpers/app';
import { codeIn, waitForEmail } from '../helpers/email';
import { makeBranch, makeUser, TEST_PASSWORD } from '../helpers/factories';

const UA = 'audit-test-agent/1.0';
const NEW_PASSWORD = 'audit-new-secret-77';

let t: TestApp;
let superadmin: Awaited<ReturnType<TestApp['userWithSession']>>;
let admin: Awaited<ReturnType<TestApp['userWithSession']>>;
let manager: Awaited<ReturnType<TestApp['userWithSession']>>;
/** Every secret this file hands out: none may ever appear in an entry (checked last). */
const secrets = new Set<string>([TEST_PASSWORD, NEW_PASSWORD]);

beforeAll(async () => {
  t = await startTestApp();
  superadmin = await t.userWithSession('superadmin');
  admin = await t.userWithSession('admin', { fullName: 'Amaya Audit' });
  manager = await t.userWithSession('manager');
  for (const u of [superadmin, admin, manager]) secrets.add(u.token);
});
afterAll(() => t.close());

/** A REST call with the test's user agent. */
const api = (method: string, path: string, token?: string, body?: unknown) =>
  t.api(method, path, { token, body, headers: { 'user-agent': UA } });

/** A tRPC client with the test's user agent (the helper's own sends fetch's). */
function trpc(token?: string) {
  return createTRPCClient<AppRouter>({
    links: [
      httpLink({
        url: `${t.baseUrl}/trpc`,
        headers: () => ({ 'user-agent': UA, ...(token ? { authorization: `Bearer ${token}` } : {}) }),
      }),
    ],
  });
}

type Row = typeof auditLog.$inferSelect;

/** Entries written from now on: call `mark()`, act, then `since()`. */
async function mark(): Promise<Set<string>> {
  const rows = await t.deps.db.select({ id: auditLog.id }).from(auditLog);
  return new Set(rows.map((r) => r.id));
}
async function since(seen: Set<string>): Promise<Row[]> {
  const rows = await t.deps.db.select().from(auditLog).orderBy(asc(auditLog.createdAt), asc(auditLog.id));
  return rows.filter((r) => !seen.has(r.id));
}
/** Acts and answers the one entry the act wrote (fails on none or several). */
async function oneEntry(act: () => Promise<unknown>): Promise<Row> {
  const seen = await mark();
  await act();
  const rows = await since(seen);
  expect(rows.map((r) => `${r.action} ${r.entityType} ${r.summary}`)).toHaveLength(1);
  return rows[0]!;
}
async function noEntry(act: () => Promise<unknown>) {
  const seen = await mark();
  await act();
  expect(await since(seen)).toEqual([]);
}
const change = (row: Row, field: string) => row.changes.find((c) => c.field === field);
const fields = (row: Row) => row.changes.map((c: AuditChange) => c.field);

function expectRequestMeta(row: Row, actor: { id: string; username: string; role: Role } | null) {
  expect(row.actorId).toBe(actor?.id ?? null);
  expect(row.actorUsername).toBe(actor?.username ?? null);
  expect(row.actorRole).toBe(actor?.role ?? null);
  expect(row.ip).toMatch(/127\.0\.0\.1/);
  expect(row.userAgent).toBe(UA);
  expect(row.requestId).toMatch(/^req-/);
}

describe('users', () => {
  it('records a create, a role change, a branch move, an edit and a delete once each', async () => {
    const colombo = await makeBranch(t.deps.db, { name: 'Audit Colombo' });
    const galle = await makeBranch(t.deps.db, { name: 'Audit Galle' });
    let id = '';
    const created = await oneEntry(async () => {
      const res = await api('POST', '/api/users', admin.token, {
        username: 'audited1',
        fullName: 'Audited One',
        email: 'audited1@example.com',
        password: TEST_PASSWORD,
        role: 'student',
        branchId: colombo.id,
      });
      expect(res.status).toBe(201);
      id = res.body._id as string;
    });
    expect(created).toMatchObject({
      action: 'create',
      entityType: 'user',
      entityId: id,
      summary: 'Created user audited1 (Student) in Audit Colombo',
    });
    expectRequestMeta(created, admin);
    expect(change(created, 'role')).toEqual({ field: 'role', before: null, after: 'student' });
    expect(change(created, 'branch')).toEqual({ field: 'branch', before: null, after: 'Audit Colombo' });
    expect(change(created, 'email')).toEqual({ field: 'email', before: null, after: 'audited1@example.com' });

    const promoted = await oneEntry(() => trpc(admin.token).users.update.mutate({ id, role: 'manager' }));
    expect(promoted).toMatchObject({
      action: 'role_change',
      entityId: id,
      summary: 'Changed the role of audited1 from Student to Manager',
      changes: [{ field: 'role', before: 'student', after: 'manager' }],
    });
    expectRequestMeta(promoted, admin);

    const moved = await oneEntry(() => api('PUT', `/api/users/${id}`, admin.token, { branchId: galle.id }));
    expect(moved).toMatchObject({
      action: 'branch_move',
      summary: 'Moved audited1 from Audit Colombo to Audit Galle',
      changes: [{ field: 'branch', before: 'Audit Colombo', after: 'Audit Galle' }],
    });

    const both = await oneEntry(() =>
      trpc(superadmin.token).users.update.mutate({ id, role: 'student', branchId: colombo.id, fullName: 'Audited 1' }),
    );
    expect(both.action).toBe('role_change');
    expect(both.summary).toBe(
      'Changed the role of audited1 from Manager to Student; moved from Audit Galle to Audit Colombo; updated full name',
    );
    expect(fields(both).sort()).toEqual(['branch', 'fullName', 'role']);

    const edited = await oneEntry(() => api('PUT', `/api/users/${id}`, admin.token, { phone: '0771234567' }));
    expect(edited).toMatchObject({
      action: 'update',
      summary: 'Updated phone of audited1',
      changes: [{ field: 'phone', before: null, after: '+94771234567' }],
    });

    // Saving the same values again changes nothing and records nothing.
    await noEntry(() => api('PUT', `/api/users/${id}`, admin.token, { phone: '0771234567', fullName: 'Audited 1' }));

    const deleted = await oneEntry(() => api('DELETE', `/api/users/${id}`, admin.token));
    expect(deleted).toMatchObject({ action: 'delete', entityId: id, summary: 'Deleted user audited1 (Student)' });
    expect(change(deleted, 'username')).toEqual({ field: 'username', before: 'audited1', after: null });
    expect(change(deleted, 'phone')).toEqual({ field: 'phone', before: '+94771234567', after: null });
  });

  it('records an own-profile edit with the user as actor', async () => {
    const me = await t.userWithSession('manager');
    secrets.add(me.token);
    const row = await oneEntry(() => api('PUT', '/api/users/profile', me.token, { address: '1 Lake Road' }));
    expect(row).toMatchObject({
      action: 'update',
      entityId: me.id,
      summary: `${me.username} updated their own address`,
      changes: [{ field: 'address', before: null, after: '1 Lake Road' }],
    });
    expectRequestMeta(row, me);
  });

  it('records nothing for a refused change (409, 400, 403)', async () => {
    const branch = await makeBranch(t.deps.db);
    const other = await makeUser(t.deps.db, { branchId: branch.id });
    const body = {
      username: 'dup1',
      fullName: 'Dup',
      email: other.email,
      password: TEST_PASSWORD,
      branchId: branch.id,
    };
    await noEntry(async () => expect((await api('POST', '/api/users', admin.token, body)).status).toBe(409));
    await noEntry(async () =>
      expect(
        (await api('POST', '/api/users', admin.token, { ...body, email: 'x@example.com', password: 'short' })).status,
      ).toBe(400),
    );
    await noEntry(async () =>
      expect((await api('PUT', `/api/users/${other.id}`, manager.token, { role: 'admin' })).status).toBe(403),
    );
    await noEntry(async () => expect((await api('DELETE', `/api/users/${admin.id}`, admin.token)).status).toBe(403));
  });
});

describe('branches, courses, treatments and settings', () => {
  it('records branch create, rename and delete; a refused delete and a duplicate name record nothing', async () => {
    let id = '';
    const created = await oneEntry(async () => {
      const res = await api('POST', '/api/branch', admin.token, { name: 'Audit Kandy', location: 'Hill Street' });
      id = res.body._id as string;
    });
    expect(created).toMatchObject({
      action: 'create',
      entityType: 'branch',
      entityId: id,
      summary: 'Created branch Audit Kandy',
      changes: [
        { field: 'name', before: null, after: 'Audit Kandy' },
        { field: 'location', before: null, after: 'Hill Street' },
      ],
    });
    const renamed = await oneEntry(() =>
      trpc(admin.token).branches.update.mutate({ id, name: 'Audit Kandy City', location: 'Hill Street' }),
    );
    expect(renamed).toMatchObject({
      action: 'update',
      summary: 'Renamed branch Audit Kandy to Audit Kandy City',
      changes: [{ field: 'name', before: 'Audit Kandy', after: 'Audit Kandy City' }],
    });
    await noEntry(async () =>
      expect((await api('POST', '/api/branch', admin.token, { name: 'audit kandy city', location: 'x' })).status).toBe(
        409,
      ),
    );
    const member = await makeUser(t.deps.db, { branchId: id });
    await noEntry(async () => expect((await api('DELETE', `/api/branch/${id}`, admin.token)).status).toBe(409));
    await t.deps.db.delete(users).where(eq(users.id, member.id));
    const deleted = await oneEntry(() => api('DELETE', `/api/branch/${id}`, admin.token));
    expect(deleted).toMatchObject({ action: 'delete', summary: 'Deleted branch Audit Kandy City' });
    expect(deleted.changes).toEqual([
      { field: 'name', before: 'Audit Kandy City', after: null },
      { field: 'location', before: 'Hill Street', after: null },
    ]);
  });

  it('records course create, fee change and delete with money as decimals', async () => {
    let id = '';
    const created = await oneEntry(async () => {
      const res = await api('POST', '/api/course', manager.token, {
        courseName: 'Audit Yoga',
        duration: '3 months',
        totalFee: 30000.5,
        installments: 3,
        category: 'Health',
        admissionFee: 1500,
      });
      expect(res.status).toBe(201);
      id = res.body._id as string;
    });
    expect(created).toMatchObject({ action: 'create', entityType: 'course', summary: 'Created course Audit Yoga' });
    expectRequestMeta(created, manager);
    expect(change(created, 'totalFee')).toEqual({ field: 'totalFee', before: null, after: 30000.5 });

    const updated = await oneEntry(() => trpc(manager.token).courses.update.mutate({ id, totalFee: 32000 }));
    expect(updated).toMatchObject({
      action: 'update',
      summary: 'Updated course Audit Yoga',
      changes: [{ field: 'totalFee', before: 30000.5, after: 32000 }],
    });
    await noEntry(async () =>
      expect((await api('PUT', `/api/course/${id}`, manager.token, { totalFee: -1 })).status).toBe(400),
    );
    const deleted = await oneEntry(() => api('DELETE', `/api/course/${id}`, manager.token));
    expect(deleted).toMatchObject({ action: 'delete', summary: 'Deleted course Audit Yoga' });
    expect(change(deleted, 'admissionFee')).toEqual({ field: 'admissionFee', before: 1500, after: null });
  });

  it('records treatment create, a duration change part by part, and delete; a duplicate name records nothing', async () => {
    const values = {
      treatmentName: 'Audit Massage',
      localPrice: 5000,
      foreignPrice: 50,
      maxSessions: 5,
      installments: 1,
      duration: { weeks: 2, days: 0, months: 0 },
    };
    let id = '';
    const created = await oneEntry(async () => {
      const res = await api('POST', '/api/treatments', admin.token, values);
      id = res.body._id as string;
    });
    expect(created).toMatchObject({ action: 'create', entityType: 'treatment', entityId: id });
    expect(change(created, 'duration.weeks')).toEqual({ field: 'duration.weeks', before: null, after: 2 });

    const updated = await oneEntry(() =>
      api('PUT', `/api/treatments/${id}`, admin.token, { ...values, duration: { weeks: 2, days: 3, months: 0 } }),
    );
    expect(updated).toMatchObject({
      action: 'update',
      summary: 'Updated treatment Audit Massage',
      changes: [{ field: 'duration.days', before: 0, after: 3 }],
    });
    await noEntry(async () =>
      expect(
        (await api('POST', '/api/treatments', admin.token, { ...values, treatmentName: 'AUDIT massage' })).status,
      ).toBe(409),
    );
    const deleted = await oneEntry(() => trpc(admin.token).treatments.delete.mutate({ id }));
    expect(deleted).toMatchObject({ action: 'delete', summary: 'Deleted treatment Audit Massage' });
  });

  it('records currency and access settings changes', async () => {
    const currency = await oneEntry(() =>
      trpc(admin.token).settings.updateCurrency.mutate({
        localCurrency: 'LKR',
        foreignCurrency: 'USD',
        exchangeRate: 300.5,
      }),
    );
    expect(currency).toMatchObject({
      action: 'update',
      entityType: 'settings',
      entityId: 'currency',
      summary: 'Changed the currency settings to LKR/USD at 300.5',
      changes: [{ field: 'exchangeRate', before: 320.75, after: 300.5 }],
    });
    await noEntry(async () =>
      expect(
        trpc(admin.token).settings.updateCurrency.mutate({
          localCurrency: 'LKR',
          foreignCurrency: 'LKR',
          exchangeRate: 1,
        }),
      ).rejects.toMatchObject({ data: { code: 'BAD_REQUEST' } }),
    );
    const access = await oneEntry(() =>
      trpc(superadmin.token).settings.updateAccess.mutate({ managersOwnBranchOnly: true }),
    );
    expect(access).toMatchObject({
      entityId: 'access',
      summary: 'Limited managers to their own branch',
      changes: [{ field: 'managersOwnBranchOnly', before: false, after: true }],
    });
    await oneEntry(() => trpc(superadmin.token).settings.updateAccess.mutate({ managersOwnBranchOnly: false }));
  });

  it('writes nothing when the transaction of a change rolls back', async () => {
    await noEntry(async () => {
      await expect(
        t.deps.db.transaction(async (tx) => {
          await recordAudit(
            tx,
            { actor: admin },
            { action: 'update', entityType: 'course', entityId: null, summary: 'x' },
          );
          throw new Error('the change failed');
        }),
      ).rejects.toThrow('the change failed');
    });
  });
});

describe('sign-in, sign-out and password reset', () => {
  const signIn = (email: string, password: string) => api('POST', '/api/users/auth', undefined, { email, password });

  it('records a sign-in over REST and tRPC, failures, a throttled attempt and a sign-out', async () => {
    const user = await makeUser(t.deps.db, { role: 'manager' });
    // Registered first, so the final scan looks for them even if an assertion here fails.
    secrets.add('not-the-password').add('my-secret-pass-9');
    const ok = await oneEntry(async () => {
      const res = await signIn(user.email, TEST_PASSWORD);
      expect(res.status).toBe(200);
      secrets.add(res.body.token as string);
    });
    expect(ok).toMatchObject({ action: 'sign_in', entityId: user.id, summary: `${user.username} signed in` });
    expectRequestMeta(ok, user);

    const viaTrpc = await oneEntry(async () => {
      const res = await trpc().auth.login.mutate({ email: user.email, password: TEST_PASSWORD });
      secrets.add(res.token);
    });
    expect(viaTrpc).toMatchObject({ action: 'sign_in', entityId: user.id });

    const wrong = await oneEntry(async () => expect((await signIn(user.email, 'not-the-password')).status).toBe(401));
    expect(wrong).toMatchObject({
      action: 'sign_in_failed',
      entityId: user.id,
      summary: `Failed sign-in as ${user.email}: wrong password`,
    });
    expectRequestMeta(wrong, null);

    const unknown = await oneEntry(async () =>
      expect((await signIn('nobody-audit@example.com', TEST_PASSWORD)).status).toBe(401),
    );
    expect(unknown).toMatchObject({
      action: 'sign_in_failed',
      entityId: null,
      summary: 'Failed sign-in as nobody-audit@example.com: no such account',
    });
    // A password typed into the email box is never written down.
    const typo = await oneEntry(async () => expect((await signIn('my-Secret-pass-9', 'x')).status).toBe(401));
    expect(typo.summary).toBe('Failed sign-in as an unknown account: no such account');

    for (let i = 0; i < 4; i++) expect((await signIn(user.email, `wrong-${i}`)).status).toBe(401);
    const throttled = await oneEntry(async () => expect((await signIn(user.email, TEST_PASSWORD)).status).toBe(429));
    expect(throttled).toMatchObject({
      action: 'sign_in_throttled',
      entityId: user.id,
      summary: `Refused sign-in as ${user.email}: too many failed attempts`,
    });

    const session = await t.userWithSession('admin');
    secrets.add(session.token);
    const out = await oneEntry(() => api('POST', '/api/users/logout', session.token));
    expect(out).toMatchObject({ action: 'sign_out', entityId: session.id, summary: `${session.username} signed out` });
    expectRequestMeta(out, session);
  });

  it('records a password-reset request and its completion, never the code', async () => {
    const user = await makeUser(t.deps.db, { role: 'student' });
    const seen = await mark();
    expect((await api('POST', '/api/users/forgot-password', undefined, { email: user.email })).status).toBe(200);
    const mail = await waitForEmail(t.deps.db, user.email);
    const code = codeIn(mail);
    secrets.add(code);
    const [pending] = await t.deps.db.select().from(passwordResets).where(eq(passwordResets.userId, user.id));
    secrets.add(pending!.otpHash!);
    const requested = await since(seen);
    expect(requested).toHaveLength(1);
    expect(requested[0]).toMatchObject({
      action: 'password_reset_request',
      entityId: user.id,
      summary: `Password reset code requested for ${user.username}`,
    });
    expectRequestMeta(requested[0]!, null);

    // An unknown email sends no code and changes nothing: nothing is recorded.
    await noEntry(async () => {
      await api('POST', '/api/users/forgot-password', undefined, { email: 'nobody-reset@example.com' });
      await new Promise((r) => setTimeout(r, 300));
    });
    const wrongCode = code === '123456' ? '654321' : '123456';
    await noEntry(async () => {
      const res = await api('POST', '/api/users/reset-password', undefined, {
        email: user.email,
        otp: wrongCode,
        password: NEW_PASSWORD,
      });
      expect(res.status).toBe(400);
    });
    const done = await oneEntry(async () =>
      expect(
        (
          await api('POST', '/api/users/reset-password', undefined, {
            email: user.email,
            otp: code,
            password: NEW_PASSWORD,
          })
        ).status,
      ).toBe(200),
    );
    expect(done).toMatchObject({
      action: 'password_reset',
      entityId: user.id,
      summary: `${user.username} reset their password with an emailed code`,
      changes: [],
    });
    expectRequestMeta(done, user);
  });
});

describe('downloads', () => {
  it('records a report download with its format, rows and filters', async () => {
    const row = await oneEntry(async () => {
      const res = await fetch(`${t.baseUrl}/api/reports/users/excel?role=manager`, {
        headers: { authorization: `Bearer ${manager.token}`, 'user-agent': UA },
      });
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    });
    expect(row).toMatchObject({ action: 'download', entityType: 'report', entityId: 'users' });
    expect(row.summary).toMatch(/^Downloaded User Report \(Excel, \d+ rows?\); filters: Role: manager$/);
    expectRequestMeta(row, manager);
  });
});

describe('reading the log', () => {
  /** Seven receipts-entries at known instants (Colombo is UTC+05:30), by two actors. */
  const instants = [
    '2025-03-01T18:29:00Z', // 2025-03-01 23:59 in Colombo
    '2025-03-01T18:31:00Z', // 2025-03-02 00:01 in Colombo
    '2025-03-02T10:00:00Z',
    '2025-03-03T10:00:00Z',
    '2025-03-04T10:00:00Z',
    '2025-03-05T10:00:00Z',
    '2025-03-06T10:00:00Z',
  ];
  beforeAll(async () => {
    await t.deps.db.insert(auditLog).values(
      instants.map((at, i) => ({
        createdAt: new Date(at),
        actorId: i % 2 ? manager.id : admin.id,
        actorUsername: i % 2 ? manager.username : admin.username,
        actorRole: i % 2 ? 'manager' : 'admin',
        action: i === 6 ? 'void' : 'create',
        entityType: 'receipt',
        entityId: `r${i}`,
        summary: `Issued receipt number ${i} for cashbox`,
      })),
    );
  });
  const list = (query: string, token = admin.token) => api('GET', `/api/audit?entityType=receipt&${query}`, token);
  const ids = (body: { data: Array<{ entityId: string }> }) => body.data.map((e) => e.entityId);

  it('answers { data, total, page }, newest first, paged by page and limit', async () => {
    const first = await list('limit=3');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ total: 7, page: 1 });
    expect(ids(first.body)).toEqual(['r6', 'r5', 'r4']);
    expect(first.body.data[0]).toEqual({
      id: expect.any(String),
      createdAt: '2025-03-06T10:00:00.000Z',
      // The actor's full name as the account is named now, beside the username it acted under.
      actor: { id: admin.id, username: admin.username, role: 'admin', fullName: 'Amaya Audit' },
      action: 'void',
      entityType: 'receipt',
      entityId: 'r6',
      summary: 'Issued receipt number 6 for cashbox',
      changes: [],
      ip: null,
      userAgent: null,
      requestId: null,
    });
    expect(ids((await list('limit=3&page=3')).body)).toEqual(['r0']);
  });

  it('counts page 1 and reuses that total for the pages after it for 30 s, and for page 1 until this server writes, per caller and filter', async () => {
    const tally = (n: number, action: 'create' | 'void' = 'create') =>
      t.deps.db.insert(auditLog).values(
        Array.from({ length: n }, (_, i) => ({
          actorId: admin.id,
          action,
          entityType: 'payment',
          entityId: `tally${i}`,
          summary: `Tally check ${action} ${i}`,
        })),
      );
    const page = async (query: string, token = admin.token) => {
      const res = await api('GET', `/api/audit?search=tally%20check&limit=2&${query}`, token);
      expect(res.status, query).toBe(200);
      return res.body as { data: unknown[]; total: number; page: number };
    };
    await tally(3);
    expect(await page('page=1')).toMatchObject({ total: 3, page: 1 });
    await tally(2);
    // Paging on: the total page 1 counted, while the rows are read as they are now.
    const second = await page('page=2');
    expect(second).toMatchObject({ total: 3, page: 2 });
    expect(second.data).toHaveLength(2);
    // Another caller or another filter count afresh.
    expect((await page('page=2', superadmin.token)).total).toBe(5);
    await tally(1, 'void');
    expect((await page('page=2&action=void')).total).toBe(1);
    // Page 1 again reuses the count while this server has written nothing (these entries were
    // written outside it), and counts afresh once it has.
    expect((await page('page=1')).total).toBe(3);
    const branch = await api('POST', '/api/branch', admin.token, { name: `Tally ${Date.now()}`, location: 'Galle' });
    expect(branch.status).toBe(201);
    expect((await page('page=1')).total).toBe(6);
    await tally(1);
    expect((await page('page=3')).total).toBe(6);
    // 30 s after the count, a later page counts again.
    const now = Date.now();
    const later = vi.spyOn(Date, 'now').mockReturnValue(now + 31_000);
    try {
      expect((await page('page=3')).total).toBe(7);
    } finally {
      later.mockRestore();
    }
  });

  it('filters by record, actor, action, days in the institute time zone and summary text', async () => {
    expect(ids((await list('entityId=r2')).body)).toEqual(['r2']);
    expect(ids((await list(`actorId=${manager.id}`)).body)).toEqual(['r5', 'r3', 'r1']);
    expect(ids((await list(`actor=${manager.email.toUpperCase()}`)).body)).toEqual(['r5', 'r3', 'r1']);
    expect(ids((await list('action=void')).body)).toEqual(['r6']);
    expect(ids((await list('from=2025-03-02&to=2025-03-02')).body)).toEqual(['r2', 'r1']);
    expect(ids((await list('to=2025-03-01')).body)).toEqual(['r0']);
    expect(ids((await list('search=NUMBER%204')).body)).toEqual(['r4']);
    expect(ids((await list('search=%25')).body)).toEqual([]);
    expect((await list('actorId=not-a-uuid')).body).toEqual({ data: [], total: 0, page: 1 });
  });

  it('refuses malformed filters with 400', async () => {
    for (const q of [
      'from=2025-13-01',
      'from=2025-03-05&to=2025-03-01',
      'limit=0',
      'limit=500',
      'page=abc',
      'action=erase',
    ]) {
      const res = await list(q);
      expect(res.status, q).toBe(400);
      expect(res.body.message, q).toEqual(expect.any(String));
    }
  });

  it('pages audit.list by keyset with the same order and filters, and audit.forEntity by record', async () => {
    const client = trpc(admin.token);
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 5; i++) {
      const slice = await client.audit.list.query({ entityType: 'receipt', limit: 3, cursor });
      seen.push(...slice.items.map((e) => e.entityId!));
      if (!slice.nextCursor) break;
      cursor = slice.nextCursor;
    }
    expect(seen).toEqual(['r6', 'r5', 'r4', 'r3', 'r2', 'r1', 'r0']);
    // The screen's Time header turns the order around: oldest first, still by keyset.
    const oldestFirst: string[] = [];
    cursor = undefined;
    for (let i = 0; i < 5; i++) {
      const slice = await client.audit.list.query({ entityType: 'receipt', limit: 3, cursor, sortDir: 'asc' });
      oldestFirst.push(...slice.items.map((e) => e.entityId!));
      if (!slice.nextCursor) break;
      cursor = slice.nextCursor;
    }
    expect(oldestFirst).toEqual(['r0', 'r1', 'r2', 'r3', 'r4', 'r5', 'r6']);
    const byActor = await client.audit.list.query({ entityType: 'receipt', actor: manager.username.toUpperCase() });
    expect(byActor.items.map((e) => e.entityId)).toEqual(['r5', 'r3', 'r1']);
    const byEmail = await client.audit.list.query({ entityType: 'receipt', actor: manager.email, search: 'number 3' });
    expect(byEmail.items.map((e) => e.entityId)).toEqual(['r3']);

    const history = await client.audit.forEntity.query({ entityType: 'receipt', entityId: 'r4' });
    expect(history).toEqual({ items: [expect.objectContaining({ entityId: 'r4' })], nextCursor: null });
    await expect(client.audit.list.query({ cursor: 'bm90LWEtY3Vyc29y' })).rejects.toMatchObject({
      message: 'The cursor is not valid.',
      data: { code: 'BAD_REQUEST' },
    });
    // A newest-first cursor sent with the other order would skip entries: refused, not misread.
    const newestFirst = await client.audit.list.query({ entityType: 'receipt', limit: 3 });
    await expect(
      client.audit.list.query({ entityType: 'receipt', limit: 3, cursor: newestFirst.nextCursor!, sortDir: 'asc' }),
    ).rejects.toMatchObject({ message: 'The cursor is not valid.', data: { code: 'BAD_REQUEST' } });
    await expect(client.audit.list.query({ sortDir: 'sideways' as never })).rejects.toMatchObject({
      message: 'sortDir must be asc or desc.',
      data: { httpStatus: 400 },
    });
  });

  it('exports the filtered log as Excel, streamed, and records the export', async () => {
    const seen = await mark();
    const res = await fetch(`${t.baseUrl}/api/audit/export?entityType=receipt&from=2025-03-02`, {
      headers: { authorization: `Bearer ${admin.token}`, 'user-agent': UA },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(res.headers.get('content-disposition')).toMatch(
      /^attachment; filename="audit-log_\d{4}-\d{2}-\d{2}\.xlsx"$/,
    );
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(await res.arrayBuffer());
    const sheet = book.getWorksheet('Audit log')!;
    const rows = sheet.getSheetValues().filter(Boolean) as unknown[][];
    expect(rows).toHaveLength(1 + 6);
    expect(rows[0]!.slice(1, 4)).toEqual(['Time', 'Actor', 'Role']);
    // Newest first, the time in the institute's time zone to the second.
    expect(rows[1]!.slice(1, 8)).toEqual([
      '2025-03-06 15:30:00',
      admin.username,
      'admin',
      'Void',
      'Receipt',
      'r6',
      'Issued receipt number 6 for cashbox',
    ]);
    expect(book.getWorksheet('Report info')).toBeDefined();
    const recorded = await since(seen);
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({
      action: 'download',
      entityType: 'report',
      entityId: 'audit-log',
      summary: 'Downloaded the audit log (Excel); filters: Dates: 2025-03-02 to …; Record: Receipt',
    });
  });
});

describe('who may read it', () => {
  const expected: Record<Role, number> = {
    user: 403,
    student: 403,
    customer: 403,
    manager: 403,
    admin: 200,
    superadmin: 200,
  };

  it.each(ROLES)('%s', async (role) => {
    const { token } = await t.userWithSession(role);
    secrets.add(token);
    const want = expected[role];
    expect((await api('GET', '/api/audit', token)).status).toBe(want);
    const file = await fetch(`${t.baseUrl}/api/audit/export`, { headers: { authorization: `Bearer ${token}` } });
    expect(file.status).toBe(want);
    await file.arrayBuffer();
    const client = trpc(token);
    const calls = [
      () => client.audit.list.query({}),
      () => client.audit.forEntity.query({ entityType: 'user', entityId: 'x' }),
    ];
    for (const call of calls) {
      if (want === 200) await expect(call()).resolves.toMatchObject({ items: expect.any(Array) });
      else await expect(call()).rejects.toMatchObject({ data: { code: 'FORBIDDEN' } });
    }
  });

  it('anonymous callers get 401', async () => {
    expect((await api('GET', '/api/audit')).status).toBe(401);
    expect((await api('GET', '/api/audit/export')).status).toBe(401);
    await expect(trpc().audit.list.query({})).rejects.toMatchObject({ data: { code: 'UNAUTHORIZED' } });
  });

  it('offers no way to change or remove an entry', () => {
    const writes = t.app.apiRoutes.filter((r) => r.url.startsWith('/api/audit') && r.method !== 'GET');
    expect(writes).toEqual([]);
  });
});

describe('append-only', () => {
  it('the database refuses UPDATE, DELETE and TRUNCATE of entries', async () => {
    const [entry] = await t.deps.db.select({ id: auditLog.id }).from(auditLog).limit(1);
    for (const statement of [
      sql`update audit_log set summary = 'rewritten' where id = ${entry!.id}`,
      sql`delete from audit_log where id = ${entry!.id}`,
      sql`truncate audit_log`,
    ]) {
      await expect(t.deps.db.execute(statement)).rejects.toMatchObject({
        cause: { code: '42501', message: expect.stringMatching(/^audit_log is append-only/) },
      });
    }
    const [still] = await t.deps.db.select().from(auditLog).where(eq(auditLog.id, entry!.id));
    expect(still!.summary).not.toBe('rewritten');
  });

  it('runs under a role with only INSERT and SELECT on the log (scripts/audit-app-role.sql)', async () => {
    const { createTestDatabase } = await import('../helpers/db');
    const database = await createTestDatabase();
    const role = `audit_app_${Date.now().toString(36)}`;
    const owner = postgres(database.url, { max: 1, onnotice: () => {} });
    const script = (await import('node:fs')).readFileSync('scripts/audit-app-role.sql', 'utf8');
    try {
      await owner.unsafe(`create role ${role} login password 'role-pass-123'`);
      await owner.unsafe(script.replaceAll(':"app_role"', `"${role}"`));
      const url = new URL(database.url);
      url.username = role;
      url.password = 'role-pass-123';
      const app = await startTestApp({ MIGRATE_ON_START: false }, { databaseUrl: url.toString() });
      try {
        const boss = await app.userWithSession('admin');
        const target = await makeUser(app.deps.db, { role: 'student' });
        const res = await app.api('PUT', `/api/users/${target.id}`, { token: boss.token, body: { role: 'customer' } });
        expect(res.status).toBe(200);
        const rows = await app.deps.db.select().from(auditLog).where(eq(auditLog.entityId, target.id));
        expect(rows.map((r) => r.action)).toEqual(['role_change']);
        // Refused by the role's privileges before the trigger is even asked.
        await expect(app.deps.db.execute(sql`delete from audit_log`)).rejects.toMatchObject({
          cause: { code: '42501', message: expect.stringMatching(/permission denied/) },
        });
      } finally {
        await app.close();
      }
      const [privileges] = await owner<Array<{ insert: boolean; select: boolean; update: boolean; delete: boolean }>>`
        select has_table_privilege(${role}, 'audit_log', 'INSERT') as insert,
               has_table_privilege(${role}, 'audit_log', 'SELECT') as select,
               has_table_privilege(${role}, 'audit_log', 'UPDATE') as update,
               has_table_privilege(${role}, 'audit_log', 'DELETE') as delete`;
      expect(privileges).toEqual({ insert: true, select: true, update: false, delete: false });
    } finally {
      await owner.unsafe(`drop owned by ${role}`);
      await owner.unsafe(`drop role ${role}`);
      await owner.end();
      await database.drop();
    }
  });
});

describe('the same change through REST and tRPC', () => {
  const comparable = (r: Row) => {
    const { id: _id, createdAt: _at, requestId: _req, ...rest } = r;
    return rest;
  };

  it('writes entries identical apart from the request id', async () => {
    const branch = await makeBranch(t.deps.db, { name: 'Twin Branch', location: 'Old Road' });
    const student = await makeUser(t.deps.db, { role: 'student', branchId: branch.id });
    const [course] = await t.deps.db
      .insert(courses)
      .values({
        courseName: 'Twin Course',
        duration: '1 month',
        totalFee: 100000,
        installments: 1,
        category: 'X',
        admissionFee: 0,
      })
      .returning();
    const [treatment] = await t.deps.db
      .insert(treatments)
      .values({ treatmentName: 'Twin Care', localPrice: 100000, foreignPrice: 1000, maxSessions: 3, installments: 1 })
      .returning();
    const treatmentValues = {
      treatmentName: 'Twin Care',
      localPrice: 1500,
      foreignPrice: 10,
      maxSessions: 3,
      installments: 1,
      duration: { weeks: 0, days: 0, months: 0 },
    };
    const signInUser = await makeUser(t.deps.db, { role: 'manager' });
    const cases: Array<{
      name: string;
      rest: () => Promise<unknown>;
      trpc: () => Promise<unknown>;
      undo: () => Promise<unknown>;
    }> = [
      {
        name: 'role change',
        rest: () => api('PUT', `/api/users/${student.id}`, admin.token, { role: 'customer' }),
        trpc: () => trpc(admin.token).users.update.mutate({ id: student.id, role: 'customer' }),
        undo: () => t.deps.db.update(users).set({ role: 'student' }).where(eq(users.id, student.id)),
      },
      {
        name: 'branch update',
        rest: () => api('PUT', `/api/branch/${branch.id}`, admin.token, { name: 'Twin Branch', location: 'New Road' }),
        trpc: () =>
          trpc(admin.token).branches.update.mutate({ id: branch.id, name: 'Twin Branch', location: 'New Road' }),
        undo: () => t.deps.db.execute(sql`update branches set location = 'Old Road' where id = ${branch.id}`),
      },
      {
        name: 'course fee',
        rest: () => api('PUT', `/api/course/${course!.id}`, admin.token, { totalFee: 1200, description: 'Evenings' }),
        trpc: () =>
          trpc(admin.token).courses.update.mutate({ id: course!.id, totalFee: 1200, description: 'Evenings' }),
        undo: () =>
          t.deps.db.update(courses).set({ totalFee: 100000, description: null }).where(eq(courses.id, course!.id)),
      },
      {
        name: 'treatment price',
        rest: () => api('PUT', `/api/treatments/${treatment!.id}`, admin.token, treatmentValues),
        trpc: () => trpc(admin.token).treatments.update.mutate({ id: treatment!.id, ...treatmentValues }),
        undo: () =>
          t.deps.db
            .update(treatments)
            .set({ localPrice: 100000, foreignPrice: 1000 })
            .where(eq(treatments.id, treatment!.id)),
      },
      {
        name: 'sign-in',
        rest: async () =>
          secrets.add(
            (await api('POST', '/api/users/auth', undefined, { email: signInUser.email, password: TEST_PASSWORD })).body
              .token,
          ),
        trpc: async () =>
          secrets.add((await trpc().auth.login.mutate({ email: signInUser.email, password: TEST_PASSWORD })).token),
        undo: async () => {},
      },
    ];
    for (const c of cases) {
      const viaRest = await oneEntry(c.rest);
      await c.undo();
      const viaTrpc = await oneEntry(c.trpc);
      expect(viaTrpc.requestId, c.name).not.toBe(viaRest.requestId);
      expect(comparable(viaTrpc), c.name).toEqual(comparable(viaRest));
      expect(viaRest.changes.length + (c.name === 'sign-in' ? 1 : 0), c.name).toBeGreaterThan(0);
    }
  });
});

describe('secrets', () => {
  it('no entry of this file holds a password, password hash, session token or id, OTP or its hash', async () => {
    const rows = await t.deps.db.select().from(auditLog);
    expect(rows.length).toBeGreaterThan(40);
    const db = t.deps.db;
    const hashes = [
      ...(await db.select({ h: users.passwordHash }).from(users)),
      ...(await db.select({ h: sessions.id }).from(sessions)),
      ...(await db.select({ h: passwordResets.otpHash }).from(passwordResets)),
    ].flatMap((r) => (r.h ? [r.h] : []));
    const codes = (await t.deps.db.select({ text: emailOutbox.text }).from(emailOutbox)).flatMap(
      (m) => /\b(\d{6})\b/.exec(m.text)?.slice(1) ?? [],
    );
    // A session's id is its token's SHA-256: neither may appear.
    const all = [...secrets, ...[...secrets].filter((s) => s.length === 32).map(sessionIdFromToken), ...hashes];
    for (const row of rows) {
      const text = JSON.stringify(row).toLowerCase();
      for (const s of all) expect(text, `${row.summary} holds a secret`).not.toContain(s.toLowerCase());
      const readable = JSON.stringify([row.summary, row.changes, row.userAgent]);
      for (const code of codes) expect(readable, `${row.summary} holds an OTP`).not.toContain(code);
    }
  });
});
