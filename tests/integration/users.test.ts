import { randomBytes, randomInt } from 'node:crypto';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { courses, enrollments, treatmentBookings, users } from '../../src/server/db/schema';
import { grantableRoles, ROLES, type Role } from '../../src/shared/roles';
import { startTestApp, type TestApp } from '../helpers/app';
import { makeBranch, makeUser, TEST_PASSWORD } from '../helpers/factories';

let t: TestApp;
let branchId: string;
beforeAll(async () => {
  t = await startTestApp();
  branchId = (await makeBranch(t.deps.db)).id;
});
afterAll(() => t.close());

const uniq = () => randomBytes(4).toString('hex');

function newUserBody(o: Partial<{ role: Role; email: string; username: string; branch: string }> = {}) {
  const s = uniq();
  return {
    username: o.username ?? `new_${s}`,
    fullName: `New Person ${s}`,
    email: o.email ?? `new.${s}@example.com`,
    password: 'long-enough-pw',
    role: o.role,
    branch: o.branch ?? branchId,
  };
}

// Smallest valid PNG (1x1, transparent).
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

async function upload(
  path: string,
  token: string,
  fields: Record<string, string>,
  file?: { data: Buffer; type: string; name: string },
) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  if (file) form.append('image', new Blob([new Uint8Array(file.data)], { type: file.type }), file.name);
  const res = await fetch(t.baseUrl + path, {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  return {
    status: res.status,
    body: (await res.json()) as Record<string, unknown> & { image: string; message: string },
  };
}

describe('who may grant which role', () => {
  const actors: Role[] = ['manager', 'admin', 'superadmin'];

  it.each(actors)('%s creates exactly the roles it may grant', async (actorRole) => {
    const { token } = await t.userWithSession(actorRole);
    const outcome: Record<string, number> = {};
    for (const role of ROLES) {
      const res = await t.api('POST', '/api/users', { token, body: newUserBody({ role }) });
      outcome[role] = res.status;
      if (res.status === 201) expect(res.body.role).toBe(role);
      else expect(res.body.message).toMatch(/^You cannot assign the .+ role\.$/);
    }
    const expected = Object.fromEntries(ROLES.map((r) => [r, grantableRoles(actorRole).includes(r) ? 201 : 403]));
    expect(outcome).toEqual(expected);
  });

  it.each(actors)('%s sets exactly the roles it may grant on an existing user', async (actorRole) => {
    const client = t.trpc((await t.userWithSession(actorRole)).token);
    for (const role of ROLES) {
      const target = await makeUser(t.deps.db, { role: 'student', branchId });
      const call = client.users.update.mutate({ id: target.id, role });
      if (grantableRoles(actorRole).includes(role)) await expect(call).resolves.toMatchObject({ _id: target.id, role });
      else await expect(call).rejects.toMatchObject({ data: { code: 'FORBIDDEN' } });
    }
  });

  it('refuses user, student and customer callers', async () => {
    for (const role of ['user', 'student', 'customer'] as const) {
      const { token } = await t.userWithSession(role);
      expect((await t.api('POST', '/api/users', { token, body: newUserBody() })).status).toBe(403);
    }
  });

  it('lets nobody change their own role, even a superadmin', async () => {
    for (const role of ['manager', 'admin', 'superadmin'] as const) {
      const me = await t.userWithSession(role);
      const res = await t.api('PUT', `/api/users/${me.id}`, { token: me.token, body: { userId: me.id, role: 'user' } });
      expect(res.status).toBe(403);
      expect(res.body.message).toBe('You cannot change your own role.');
      // Saving one's own row with the same role is not a change.
      const same = await t.api('PUT', `/api/users/${me.id}`, {
        token: me.token,
        body: { fullName: 'Renamed Self', role },
      });
      expect(same.status).toBe(200);
      expect(same.body).toMatchObject({ fullName: 'Renamed Self', role });
    }
  });

  it('lets staff editing themselves change only profile fields, never their branch', async () => {
    const home = await makeBranch(t.deps.db);
    const elsewhere = await makeBranch(t.deps.db);
    for (const role of ['manager', 'admin', 'superadmin'] as const) {
      const me = await t.userWithSession(role, { branchId: home.id });
      const viaRest = await t.api('PUT', `/api/users/${me.id}`, { token: me.token, body: { branchId: elsewhere.id } });
      expect(viaRest.status).toBe(403);
      expect(viaRest.body.message).toBe('You cannot move your own account to another branch.');
      await expect(t.trpc(me.token).users.update.mutate({ id: me.id, branchId: null })).rejects.toMatchObject({
        message: 'You cannot move your own account to another branch.',
      });
      // Saving the row with the branch it already has, and profile fields, are fine.
      const same = await t.api('PUT', `/api/users/${me.id}`, {
        token: me.token,
        body: { branchId: home.id, phone: '0770000000' },
      });
      expect(same.status).toBe(200);
      expect(same.body.branch._id).toBe(home.id);
      expect(same.body.phone).toBe('+94770000000');
    }
    // Moving somebody else stays a staff task.
    const admin = await t.userWithSession('admin', { branchId: home.id });
    const student = await t.userWithSession('student', { branchId: home.id });
    const moved = await t.api('PUT', `/api/users/${student.id}`, {
      token: admin.token,
      body: { branchId: elsewhere.id },
    });
    expect(moved.status).toBe(200);
    expect(moved.body.branch._id).toBe(elsewhere.id);
  });

  it('ends the sessions of a user whose role changes', async () => {
    const admin = await t.userWithSession('admin');
    const victim = await t.userWithSession('manager');
    expect((await t.api('GET', '/api/users', { token: victim.token })).status).toBe(200);
    const res = await t.api('PUT', `/api/users/${victim.id}`, { token: admin.token, body: { role: 'customer' } });
    expect(res.status).toBe(200);
    expect((await t.api('GET', '/api/branch', { token: victim.token })).status).toBe(401);
  });

  it('keeps a manager away from managers and admins', async () => {
    const manager = await t.userWithSession('manager');
    const admin = await makeUser(t.deps.db, { role: 'admin' });
    const res = await t.api('PUT', `/api/users/${admin.id}`, { token: manager.token, body: { fullName: 'Hijacked' } });
    expect(res.status).toBe(403);
    const [row] = await t.deps.db.select({ fullName: users.fullName }).from(users).where(eq(users.id, admin.id));
    expect(row!.fullName).not.toBe('Hijacked');
  });
});

describe('adding a user', () => {
  it('requires a branch, defaults the role to user and stores the email lowercased', async () => {
    const { token } = await t.userWithSession('admin');
    const noBranch = await t.api('POST', '/api/users', { token, body: { ...newUserBody(), branch: '' } });
    expect(noBranch.status).toBe(400);
    expect(noBranch.body.message).toBe('Please select a branch.');
    const missing = await t.api('POST', '/api/users', {
      token,
      body: { username: 'x', fullName: 'X', email: 'x@example.com', password: 'long-enough-pw' },
    });
    expect(missing.body.message).toBe('Please select a branch.');

    const s = uniq();
    const res = await t.api('POST', '/api/users', {
      token,
      body: { ...newUserBody({ email: `  Mixed.${s}@Example.COM ` }), role: undefined },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ role: 'user', email: `mixed.${s}@example.com`, branch: { _id: branchId } });
  });

  it('refuses a short password, a bad email and an unknown branch with 400', async () => {
    const { token } = await t.userWithSession('admin');
    const short = await t.api('POST', '/api/users', { token, body: { ...newUserBody(), password: 'short' } });
    expect(short.status).toBe(400);
    expect(short.body.message).toBe('Password must be at least 8 characters.');
    const email = await t.api('POST', '/api/users', { token, body: { ...newUserBody(), email: 'not-an-email' } });
    expect(email.status).toBe(400);
    expect(email.body.message).toBe('Please enter a valid email address.');
    const branch = await t.api('POST', '/api/users', {
      token,
      body: newUserBody({ branch: '00000000-0000-4000-8000-000000000000' }),
    });
    expect(branch.status).toBe(400);
    expect(branch.body.message).toBe('The selected branch does not exist.');
  });

  it('refuses the same email in another case, and a taken username, with 409', async () => {
    const { token } = await t.userWithSession('admin');
    const s = uniq();
    expect(
      (
        await t.api('POST', '/api/users', {
          token,
          body: newUserBody({ email: `dup.${s}@example.com`, username: `dup_${s}` }),
        })
      ).status,
    ).toBe(201);
    const email = await t.api('POST', '/api/users', { token, body: newUserBody({ email: ` DUP.${s}@EXAMPLE.com` }) });
    expect(email.status).toBe(409);
    expect(email.body.message).toBe('A user with this email already exists.');
    const name = await t.api('POST', '/api/users', { token, body: newUserBody({ username: `DUP_${s}` }) });
    expect(name.status).toBe(409);
    expect(name.body.message).toBe('This username is already taken.');

    const other = await makeUser(t.deps.db, { role: 'student' });
    const rename = await t.api('PUT', `/api/users/${other.id}`, { token, body: { username: `dup_${s}` } });
    expect(rename.status).toBe(409);
    expect(rename.body.message).toBe('This username is already taken.');
  });

  it('lets the new user sign in with the given password', async () => {
    const { token } = await t.userWithSession('manager');
    const body = newUserBody({ role: 'student' });
    expect((await t.api('POST', '/api/users', { token, body })).status).toBe(201);
    const login = await t.api('POST', '/api/users/auth', { body: { email: body.email, password: body.password } });
    expect(login.status).toBe(200);
  });
});

describe('deleting a user', () => {
  it('refuses to delete oneself', async () => {
    for (const role of ['admin', 'superadmin'] as const) {
      const me = await t.userWithSession(role);
      const res = await t.api('DELETE', `/api/users/${me.id}`, { token: me.token });
      expect(res.status).toBe(403);
      expect(res.body.message).toBe('You cannot delete your own account.');
    }
  });

  it('refuses a manager', async () => {
    const manager = await t.userWithSession('manager');
    const target = await makeUser(t.deps.db, { role: 'student' });
    const res = await t.api('DELETE', `/api/users/${target.id}`, { token: manager.token });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('Only admins and superadmins can delete users.');
    await expect(t.trpc(manager.token).users.delete.mutate({ id: target.id })).rejects.toMatchObject({
      message: 'Only admins and superadmins can delete users.',
    });
    expect((await t.api('GET', `/api/users/${target.id}`, { token: manager.token })).status).toBe(200);
  });

  it('keeps an admin from editing or deleting a superadmin; a superadmin may', async () => {
    const admin = await t.userWithSession('admin');
    const boss = await makeUser(t.deps.db, { role: 'superadmin' });
    const edit = await t.api('PUT', `/api/users/${boss.id}`, {
      token: admin.token,
      body: { fullName: 'Demoted', role: 'user' },
    });
    expect(edit.status).toBe(403);
    expect(edit.body.message).toBe('Only a superadmin can edit or delete a superadmin.');
    const del = await t.api('DELETE', `/api/users/${boss.id}`, { token: admin.token });
    expect(del.status).toBe(403);
    expect(del.body.message).toBe('Only a superadmin can edit or delete a superadmin.');
    const [row] = await t.deps.db
      .select({ role: users.role, fullName: users.fullName })
      .from(users)
      .where(eq(users.id, boss.id));
    expect(row).toMatchObject({ role: 'superadmin' });
    expect(row!.fullName).not.toBe('Demoted');

    const superadmin = await t.userWithSession('superadmin');
    expect(
      (await t.api('PUT', `/api/users/${boss.id}`, { token: superadmin.token, body: { fullName: 'Still Boss' } }))
        .status,
    ).toBe(200);
    expect((await t.api('DELETE', `/api/users/${boss.id}`, { token: superadmin.token })).status).toBe(200);
  });

  it('ends their sessions and keeps their enrolments and bookings readable', async () => {
    const admin = await t.userWithSession('admin');
    const victim = await t.userWithSession('student');
    const [course] = await t.deps.db
      .insert(courses)
      .values({
        courseName: 'Kept Course',
        duration: '3 months',
        totalFee: 100_00,
        installments: 1,
        category: 'IT',
        admissionFee: 10_00,
      })
      .returning();
    const [enr] = await t.deps.db
      .insert(enrollments)
      .values({
        userId: victim.id,
        courseId: course!.id,
        paymentType: 'full',
        totalFee: 100_00,
        admissionFee: 10_00,
        enrolledOn: '2025-01-01',
      })
      .returning();
    const [booking] = await t.deps.db
      .insert(treatmentBookings)
      .values({
        userId: victim.id,
        treatmentName: 'Kept Therapy',
        maxSessions: 3,
        userType: 'local',
        paymentType: 'full',
        price: 50_00,
        currency: 'LKR',
        bookedOn: '2025-01-01',
      })
      .returning();

    const res = await t.api('DELETE', `/api/users/${victim.id}`, { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'User deleted successfully.' });
    expect((await t.api('GET', `/api/users/${victim.id}`, { token: admin.token })).status).toBe(404);
    expect((await t.api('GET', '/api/branch', { token: victim.token })).status).toBe(401);
    const [kept] = await t.deps.db.select().from(enrollments).where(eq(enrollments.id, enr!.id));
    expect(kept).toMatchObject({
      userId: null,
      deletedUsername: victim.username,
      deletedEmail: victim.email,
      totalFee: 100_00,
    });
    const [keptBooking] = await t.deps.db.select().from(treatmentBookings).where(eq(treatmentBookings.id, booking!.id));
    expect(keptBooking).toMatchObject({
      userId: null,
      deletedUsername: victim.username,
      deletedEmail: victim.email,
      price: 50_00,
    });
  });

  it('answers 404 for an unknown or malformed id', async () => {
    const { token } = await t.userWithSession('admin');
    expect((await t.api('DELETE', '/api/users/00000000-0000-4000-8000-000000000000', { token })).status).toBe(404);
    expect((await t.api('DELETE', '/api/users/not-a-uuid', { token })).status).toBe(404);
    expect((await t.api('GET', '/api/users/not-a-uuid', { token })).status).toBe(404);
  });
});

describe('answers', () => {
  it('never carry the password or its hash', async () => {
    const admin = await t.userWithSession('admin');
    const body = newUserBody({ role: 'student' });
    const answers: unknown[] = [];
    const created = await t.api('POST', '/api/users', { token: admin.token, body });
    answers.push(created.body);
    const id = created.body._id as string;
    answers.push((await t.api('GET', '/api/users', { token: admin.token })).body);
    answers.push((await t.api('GET', '/api/users/students', { token: admin.token })).body);
    answers.push((await t.api('GET', `/api/users/${id}`, { token: admin.token })).body);
    answers.push((await t.api('PUT', `/api/users/${id}`, { token: admin.token, body: { fullName: 'Changed' } })).body);
    answers.push((await t.api('PUT', '/api/users/profile', { token: admin.token, body: { fullName: 'Me' } })).body);
    answers.push(await t.trpc(admin.token).users.list.query({}));
    answers.push(await t.trpc(admin.token).users.get.query({ id }));
    answers.push(await t.trpc(admin.token).auth.me.query());
    const text = JSON.stringify(answers);
    expect(text).toContain(id);
    expect(text).not.toMatch(/password/i);
    expect(text).not.toContain('$argon2');
    expect(text).not.toContain(body.password);
  });

  it('never carry the stored hash over tRPC either: sign-in, create, update, students', async () => {
    const admin = await t.userWithSession('admin');
    const client = t.trpc(admin.token);
    const { branch, ...fields } = newUserBody({ role: 'student' });
    const created = await client.users.create.mutate({ ...fields, role: 'student', branchId: branch });
    const [stored] = await t.deps.db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, created._id));
    const answers = [
      created,
      await client.users.update.mutate({ id: created._id, fullName: 'Changed Name' }),
      await client.users.students.query(),
      await t.trpc().auth.login.mutate({ email: fields.email, password: fields.password }),
    ];
    const text = JSON.stringify(answers);
    expect(text).toContain(created._id);
    expect(stored?.hash).toMatch(/^\$argon2/);
    expect(text).not.toContain(stored?.hash);
    expect(text).not.toMatch(/password/i);
    expect(text).not.toContain(fields.password);
  });

  it('lists students at /api/users/students, not as a user id', async () => {
    const { token } = await t.userWithSession('manager');
    const s = await makeUser(t.deps.db, { role: 'student' });
    const res = await t.api('GET', '/api/users/students', { token });
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    expect(res.body.every((u: { role: string }) => u.role === 'student')).toBe(true);
    expect(res.body.map((u: { _id: string }) => u._id)).toContain(s.id);
  });
});

describe('the users list in tRPC', () => {
  it('pages, searches username, full name and email, and filters by role and branch', async () => {
    const { token } = await t.userWithSession('admin');
    const client = t.trpc(token);
    const other = await makeBranch(t.deps.db);
    const tag = uniq();
    await makeUser(t.deps.db, { role: 'customer', username: `zeta_${tag}`, branchId: other.id });
    await makeUser(t.deps.db, { role: 'student', fullName: `Zeta ${tag} Person`, branchId: other.id });
    await makeUser(t.deps.db, { role: 'student', email: `zeta.${tag}@example.com`, branchId });

    const all = await client.users.list.query({ search: tag.toUpperCase() });
    expect(all.total).toBe(3);
    const page1 = await client.users.list.query({ search: tag, pageSize: 2, sortBy: 'email', sortDir: 'asc' });
    const page2 = await client.users.list.query({ search: tag, pageSize: 2, page: 2, sortBy: 'email', sortDir: 'asc' });
    expect(page1.items).toHaveLength(2);
    expect(page2.items).toHaveLength(1);
    expect(new Set([...page1.items, ...page2.items].map((u) => u._id)).size).toBe(3);
    expect((await client.users.list.query({ search: tag, role: 'student' })).total).toBe(2);
    expect((await client.users.list.query({ search: tag, branchId: other.id })).total).toBe(2);
    expect((await client.users.list.query({ search: tag, branchId: 'nope' })).total).toBe(0);
    // The search text is literal: a % is not a wildcard.
    expect((await client.users.list.query({ search: '%' })).total).toBe(0);
  });
});

describe('own profile', () => {
  it('edits full name, username, phone and address, but never email, role or branch', async () => {
    const me = await t.userWithSession('customer', { branchId });
    const res = await t.api('PUT', '/api/users/profile', {
      token: me.token,
      body: {
        fullName: 'Customer Renamed',
        username: `renamed_${uniq()}`,
        phone: '+94 77 123 4567',
        address: '1 Galle Road',
        email: 'hacker@example.com',
        role: 'superadmin',
        branchId: null,
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      fullName: 'Customer Renamed',
      phone: '+94771234567',
      address: '1 Galle Road',
      email: me.email,
      role: 'customer',
      branch: { _id: branchId },
    });
    const cleared = await t.api('PUT', '/api/users/profile', { token: me.token, body: { phone: '' } });
    expect(cleared.body.phone).toBeNull();
    expect(cleared.body.address).toBe('1 Galle Road');
  });

  it('needs a session', async () => {
    expect((await t.api('PUT', '/api/users/profile', { body: { fullName: 'x' } })).status).toBe(401);
  });
});

describe('profile pictures', () => {
  it('accepts a PNG, serves it back with its type and a long cache, and replaces it with a new URL', async () => {
    const me = await t.userWithSession('student');
    const res = await upload(
      '/api/users/profile',
      me.token,
      { phone: '0771234567' },
      { data: PNG, type: 'image/png', name: 'me.png' },
    );
    expect(res.status).toBe(200);
    expect(res.body.phone).toBe('+94771234567');
    expect(res.body.image).toMatch(/^\/api\/files\/[0-9a-f-]{36}$/);

    const file = await fetch(t.baseUrl + res.body.image, { headers: { authorization: `Bearer ${me.token}` } });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/png');
    expect(file.headers.get('cache-control')).toMatch(/immutable/);
    // Stored re-encoded (docs/users.md#profile-pictures): the same picture, not the same bytes.
    const served = await sharp(Buffer.from(await file.arrayBuffer())).metadata();
    expect(served).toMatchObject({ format: 'png', width: 1, height: 1 });
    expect((await fetch(t.baseUrl + res.body.image)).status).toBe(401);

    const again = await upload('/api/users/profile', me.token, {}, { data: PNG, type: 'image/png', name: 'me2.png' });
    expect(again.body.image).not.toBe(res.body.image);
    expect((await fetch(t.baseUrl + res.body.image, { headers: { authorization: `Bearer ${me.token}` } })).status).toBe(
      404,
    );
    const me2 = await t.trpc(me.token).auth.me.query();
    expect(me2?.image).toBe(again.body.image);
  });

  it('refuses a file that is not an image whatever it claims to be', async () => {
    const me = await t.userWithSession('student');
    const res = await upload(
      '/api/users/profile',
      me.token,
      {},
      { data: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), type: 'image/png', name: 'evil.png' },
    );
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('The picture must be a JPEG, PNG or WebP image.');
    const gif = await upload(
      '/api/users/profile',
      me.token,
      {},
      { data: Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1'), type: 'image/gif', name: 'a.gif' },
    );
    expect(gif.status).toBe(400);
    expect((await t.trpc(me.token).auth.me.query())?.image).toBeNull();
  });

  it('stores only the pixels: no appended payload, no EXIF location', async () => {
    const me = await t.userWithSession('manager');
    const photo = await sharp({ create: { width: 8, height: 6, channels: 3, background: '#3366aa' } })
      .jpeg()
      .withExif({ IFD0: { Make: 'PhoneMaker' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '6/1 55/1 0/1' } })
      .toBuffer();
    const payload = '<html><script>alert(document.cookie)</script></html>';
    const polyglot = Buffer.concat([photo, Buffer.from(payload)]);
    expect((await sharp(photo).metadata()).exif).toBeDefined();

    const res = await upload(
      '/api/users/profile',
      me.token,
      {},
      { data: polyglot, type: 'image/jpeg', name: 'me.jpg' },
    );
    expect(res.status).toBe(200);
    const file = await fetch(t.baseUrl + res.body.image, { headers: { authorization: `Bearer ${me.token}` } });
    expect(file.headers.get('content-type')).toBe('image/jpeg');
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
    const stored = Buffer.from(await file.arrayBuffer());
    expect(stored.includes(Buffer.from('<script>'))).toBe(false);
    expect(stored.includes(Buffer.from('PhoneMaker'))).toBe(false);
    const meta = await sharp(stored).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 8, height: 6 });
    expect(meta.exif).toBeUndefined();
  });

  it('refuses a damaged picture with a clear message', async () => {
    const me = await t.userWithSession('student');
    const broken = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(200, 7)]);
    const res = await upload(
      '/api/users/profile',
      me.token,
      {},
      { data: broken, type: 'image/jpeg', name: 'broken.jpg' },
    );
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('The picture could not be read; it may be damaged.');
  });

  it('refuses a picture over 2 MB with 413', async () => {
    const me = await t.userWithSession('student');
    const big = Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024)]);
    const res = await upload('/api/users/profile', me.token, {}, { data: big, type: 'image/png', name: 'big.png' });
    expect(res.status).toBe(413);
    expect(res.body.message).toBe('The picture must be at most 2 MB.');
  });

  it('lets staff set another user’s picture, phone and address with the multipart PUT', async () => {
    const admin = await t.userWithSession('admin');
    const target = await makeUser(t.deps.db, { role: 'student' });
    const res = await upload(
      `/api/users/${target.id}`,
      admin.token,
      { phone: '011 222 3333', address: 'Kandy' },
      { data: PNG, type: 'image/png', name: 'x.png' },
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ _id: target.id, phone: '+94112223333', address: 'Kandy' });
    expect(res.body.image).toMatch(/^\/api\/files\//);
  });
});

describe('sign-in after edits', () => {
  it('keeps the password when other fields change', async () => {
    const admin = await t.userWithSession('admin');
    const target = await makeUser(t.deps.db, { role: 'student' });
    await t.api('PUT', `/api/users/${target.id}`, {
      token: admin.token,
      body: { userId: target.id, username: `kept_${uniq()}`, fullName: 'Kept', role: 'customer', branchId },
    });
    expect(
      (await t.api('POST', '/api/users/auth', { body: { email: target.email, password: TEST_PASSWORD } })).status,
    ).toBe(200);
  });
});

describe('finding a user for the picker', () => {
  it('matches part of a name, username, email or phone, best first, within a limit, for staff only', async () => {
    const { token } = await t.userWithSession('manager', { branchId });
    const client = t.trpc(token);
    const tag = uniq();
    const digits = String(randomInt(1_000_000, 9_999_999));
    const phone = `+94 77 ${digits}`;
    const ann = await makeUser(t.deps.db, { role: 'student', fullName: `Ann ${tag} Perera`, branchId });
    const bob = await makeUser(t.deps.db, { role: 'customer', username: `bob_${tag}`, branchId });
    const cat = await makeUser(t.deps.db, { role: 'student', email: `cat.${tag}@example.com`, branchId });
    await t.deps.db.update(users).set({ phone }).where(eq(users.id, bob.id));

    const found = await client.users.search.query({ query: tag.toUpperCase() });
    expect(found.map((u) => u._id).sort()).toEqual([ann.id, bob.id, cat.id].sort());
    expect(found.every((u) => !('password' in u))).toBe(true);
    expect((await client.users.search.query({ query: `Ann ${tag}` })).map((u) => u.fullName)).toEqual([
      `Ann ${tag} Perera`,
    ]);
    expect((await client.users.search.query({ query: digits })).map((u) => u._id)).toEqual([bob.id]);
    expect((await client.users.search.query({ query: tag, role: 'student' })).map((u) => u._id).sort()).toEqual(
      [ann.id, cat.id].sort(),
    );
    // An exact email comes first; the limit bounds the answer; the text is literal.
    expect((await client.users.search.query({ query: `CAT.${tag}@example.com` }))[0]?._id).toBe(cat.id);
    expect(await client.users.search.query({ query: tag, limit: 1 })).toHaveLength(1);
    expect(await client.users.search.query({ query: '%' })).toEqual([]);
    await expect(client.users.search.query({ query: '' })).rejects.toMatchObject({
      data: { httpStatus: 400 },
      message: expect.stringContaining('Type part of a name') as unknown,
    });
    await expect(client.users.search.query({ query: tag, limit: 500 })).rejects.toMatchObject({
      data: { httpStatus: 400 },
    });

    const customer = await t.userWithSession('customer');
    await expect(t.trpc(customer.token).users.search.query({ query: tag })).rejects.toMatchObject({
      data: { httpStatus: 403 },
    });
  });
});
