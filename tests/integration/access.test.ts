import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appRouter } from '../../src/server/trpc/root';
import { ROLES, type Role } from '../../src/shared/roles';
import { startTestApp, type TestApp } from '../helpers/app';

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
];

/** The portal roles (docs/portal.md): every staff procedure and path answers each of them 403. */
const PORTAL_ROLES = ['user', 'student', 'customer'] as const;

interface ProcedureDef {
  type: 'query' | 'mutation' | 'subscription';
  meta?: { access?: string };
}

const procedures = Object.entries(appRouter._def.procedures as unknown as Record<string, { _def: ProcedureDef }>).map(
  ([path, p]) => ({
    path,
    type: p._def.type,
    access: p._def.meta?.access,
  }),
);

let t: TestApp;
const portalTokens: Record<string, string> = {};
beforeAll(async () => {
  t = await startTestApp();
  for (const role of PORTAL_ROLES) portalTokens[role] = (await t.userWithSession(role)).token;
});
afterAll(() => t.close());

async function callProcedure(path: string, type: string, token?: string) {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  if (type === 'query') {
    return fetch(`${t.baseUrl}/trpc/${path}?input=${encodeURIComponent('{}')}`, { headers });
  }
  return fetch(`${t.baseUrl}/trpc/${path}`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: '{}',
  });
}

describe('every tRPC procedure checks the caller', () => {
  it('declares its access through the composed procedures', () => {
    const undeclared = procedures.filter((p) => !p.access).map((p) => p.path);
    expect(undeclared).toEqual([]);
    const publicOnes = procedures.filter((p) => p.access === 'public').map((p) => p.path);
    for (const p of publicOnes) expect(PUBLIC_PROCEDURES).toContain(p);
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
