import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLES, type Role } from '../../src/shared/roles';
import { startTestApp, type TestApp } from '../helpers/app';
import { procedureList as procedures } from '../helpers/procedures';

/** The only procedures and paths anyone may call without a session (issue 2). */
const PUBLIC_PROCEDURES = [
  'auth.login',
  'users.forgotPassword',
  'users.validateOtp',
  'users.resetPassword',
  // The portal's sign-in by e-mailed code and its invitation link (docs/portal.md).
  'portal.requestCode',
  'portal.verifyCode',
  'portal.acceptInvitation',
];
const PUBLIC_PATHS = [
  'GET /api/health',
  'POST /api/users/auth',
  'POST /api/users/forgot-password',
  'POST /api/users/validate-otp',
  'POST /api/users/reset-password',
  'POST /api/portal/code',
  'POST /api/portal/code/verify',
  'POST /api/portal/invitation/accept',
  // The signed opt-out link of a message e-mail (docs/messages.md#opting-out): the signature is the check.
  'GET /api/messages/opt-out',
  'POST /api/messages/opt-out',
  'POST /api/messages/opt-in',
];

/** The portal roles (docs/portal.md): every staff procedure and path answers each of them 403. */
const PORTAL_ROLES = ['user', 'student', 'customer'] as const;

let t: TestApp;
const portalTokens: Record<string, string> = {};
beforeAll(async () => {
  t = await startTestApp();
  for (const role of PORTAL_ROLES) portalTokens[role] = (await t.userWithSession(role)).token;
});
afterAll(() => t.close());

async function callProcedure(path: string, type: string, token?: string, input = '{}') {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  if (type === 'query') {
    return fetch(`${t.baseUrl}/trpc/${path}?input=${encodeURIComponent(input)}`, { headers });
  }
  return fetch(`${t.baseUrl}/trpc/${path}`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: input,
  });
}

describe('every tRPC procedure checks the caller', () => {
  // The catalogue (tests/helpers/procedures.ts) names every procedure and its access; the walks
  // below check that each one answers as its access demands.
  it('has the documented public procedures and no others', () => {
    const publicOnes = procedures.filter((p) => p.access === 'public').map((p) => p.path);
    expect(publicOnes.sort()).toEqual([...PUBLIC_PROCEDURES].sort());
  });

  it('answers 401 without a session, except the public ones', async () => {
    const wrong: string[] = [];
    for (const p of procedures.filter((x) => x.access !== 'public')) {
      const res = await callProcedure(p.path, p.type);
      if (res.status !== 401) wrong.push(`${p.path}: ${res.status}`);
    }
    expect(wrong).toEqual([]);
  });

  it('answers 403 to every portal role for every staff and admin procedure', async () => {
    const wrong: string[] = [];
    for (const role of PORTAL_ROLES) {
      for (const p of procedures.filter((x) => x.access === 'staff' || x.access === 'admin')) {
        const res = await callProcedure(p.path, p.type, portalTokens[role]);
        if (res.status !== 403) wrong.push(`${role} ${p.path}: ${res.status}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('lets a manager past every staff procedure but no admin one, and a portal role past every authed one', async () => {
    // The role is checked before the input is read, and no input schema accepts a bare string: a
    // caller past the role check is answered 400 (200 where there is no input), so a service's own
    // refusal (a day's register is its instructor's, say) never stands in for the role check.
    const notAnInput = JSON.stringify('not an input');
    const wrong: string[] = [];
    const manager = (await t.userWithSession('manager')).token;
    for (const p of procedures.filter((x) => x.access === 'staff' || x.access === 'admin')) {
      const status = (await callProcedure(p.path, p.type, manager, notAnInput)).status;
      const refused = status === 401 || status === 403;
      if (refused !== (p.access === 'admin')) wrong.push(`manager ${p.path} (${p.access}): ${status}`);
    }
    // Signing out ends the session it is called with, so each role signs out last.
    const authed = procedures.filter((x) => x.access === 'authed');
    const ordered = [
      ...authed.filter((p) => p.path !== 'auth.logout'),
      ...authed.filter((p) => p.path === 'auth.logout'),
    ];
    for (const role of PORTAL_ROLES) {
      const { token } = await t.userWithSession(role);
      for (const p of ordered) {
        const status = (await callProcedure(p.path, p.type, token, notAnInput)).status;
        if (status === 401 || status === 403) wrong.push(`${role} ${p.path} (authed): ${status}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('answers every signed-in role on the portal procedures that need no input, never 403', async () => {
    const plain = ['portal.me', 'portal.home', 'portal.enrollments', 'portal.bookings', 'portal.payments'];
    const wrong: string[] = [];
    for (const role of ROLES) {
      const { token } = await t.userWithSession(role);
      for (const path of plain) {
        const res = await callProcedure(path, 'query', token);
        if (res.status !== 200) wrong.push(`${role} ${path}: ${res.status}`);
      }
    }
    expect(wrong).toEqual([]);
    // Every portal procedure is open to anyone signed in (or public), never to staff only.
    const portalOnes = procedures.filter((p) => p.path.startsWith('portal.'));
    expect(portalOnes.length).toBeGreaterThan(10);
    expect(portalOnes.filter((p) => p.access !== 'authed' && p.access !== 'public')).toEqual([]);
  });
});

describe('every /api path checks the caller', () => {
  const concrete = (url: string) => url.replace(/:[A-Za-z]+/g, () => randomUUID());

  it('has the documented public paths and no others', () => {
    const publicPaths = t.app.apiRoutes.filter((r) => r.access === 'public').map((r) => `${r.method} ${r.url}`);
    for (const p of publicPaths) expect(PUBLIC_PATHS).toContain(p);
    expect(t.app.apiRoutes.length).toBeGreaterThan(publicPaths.length);
  });

  it('answers 401 without a session and 403 to every portal role where staff is required', async () => {
    const wrong: string[] = [];
    for (const r of t.app.apiRoutes.filter((x) => x.access !== 'public')) {
      const url = concrete(r.url);
      const body = r.method === 'GET' ? undefined : {};
      const anon = await t.api(r.method, url, { body });
      if (anon.status !== 401) wrong.push(`anonymous ${r.method} ${r.url}: ${anon.status}`);
      if (r.access === 'staff' || r.access === 'admin') {
        for (const role of PORTAL_ROLES) {
          const res = await t.api(r.method, url, { body, token: portalTokens[role] });
          if (res.status !== 403) wrong.push(`${role} ${r.method} ${r.url}: ${res.status}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });
});

describe('role matrix', () => {
  const expectations: Record<Role, { staff: number; admin: number }> = {
    user: { staff: 403, admin: 403 },
    student: { staff: 403, admin: 403 },
    customer: { staff: 403, admin: 403 },
    manager: { staff: 200, admin: 403 },
    admin: { staff: 200, admin: 201 },
    superadmin: { staff: 200, admin: 201 },
  };

  it.each(ROLES)('%s against a staff-only and an admin-only path and procedure', async (role) => {
    const { token } = await t.userWithSession(role);
    const want = expectations[role];
    expect((await t.api('GET', '/api/branch', { token })).status).toBe(want.staff);
    const created = await t.api('POST', '/api/branch', {
      token,
      body: { name: `Matrix ${role}`, location: 'Somewhere' },
    });
    expect(created.status).toBe(want.admin);

    const client = t.trpc(token);
    const list = client.branches.list.query({});
    if (want.staff === 200) await expect(list).resolves.toMatchObject({ page: 1 });
    else await expect(list).rejects.toMatchObject({ data: { code: 'FORBIDDEN' } });
    const create = client.branches.create.mutate({ name: `Matrix trpc ${role}`, location: 'Somewhere' });
    if (want.admin === 201) await expect(create).resolves.toMatchObject({ name: `Matrix trpc ${role}` });
    else await expect(create).rejects.toMatchObject({ message: 'You do not have permission to access this page.' });
  });
});
