import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app';
import { makeBranch, makeUser } from '../helpers/factories';

let t: TestApp;
let admin: string;
let manager: string;
beforeAll(async () => {
  t = await startTestApp();
  admin = (await t.userWithSession('admin')).token;
  manager = (await t.userWithSession('manager')).token;
});
afterAll(() => t.close());

describe('branches over REST', () => {
  it('creates, reads, lists, updates and deletes a branch', async () => {
    const created = await t.api('POST', '/api/branch', {
      token: admin,
      body: { name: '  Negombo ', location: ' Beach Road ' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Negombo', location: 'Beach Road' });
    const id = created.body._id as string;

    const got = await t.api('GET', `/api/branch/${id}`, { token: manager });
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ _id: id, name: 'Negombo' });

    const list = await t.api('GET', '/api/branch', { token: manager });
    expect(list.status).toBe(200);
    expect(Array.isArray(list.body.branches)).toBe(true);
    expect(list.body.branches.map((b: { _id: string }) => b._id)).toContain(id);

    const updated = await t.api('PUT', `/api/branch/${id}`, {
      token: admin,
      body: { name: 'Negombo City', location: 'Main Street' },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ _id: id, name: 'Negombo City', location: 'Main Street' });

    const deleted = await t.api('DELETE', `/api/branch/${id}`, { token: admin });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ message: 'Branch deleted successfully!' });
    expect((await t.api('GET', `/api/branch/${id}`, { token: admin })).status).toBe(404);
  });

  it.each([
    [{ location: 'x' }, 'Please fill all the required fields.'],
    [{ name: 'x' }, 'Please fill all the required fields.'],
    [{ name: '   ', location: 'x' }, 'Please fill all the required fields.'],
    [{ name: 'x', location: '' }, 'Please fill all the required fields.'],
    [{ name: 'x'.repeat(101), location: 'y' }, 'Branch name must be at most 100 characters.'],
    [{ name: 'x', location: 'y'.repeat(201) }, 'Location must be at most 200 characters.'],
    [{ name: 42, location: 'y' }, 'Please fill all the required fields.'],
  ])('refuses %j with 400 "%s" and creates nothing', async (body, message) => {
    const before = await t.api('GET', '/api/branch', { token: admin });
    const res = await t.api('POST', '/api/branch', { token: admin, body });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
    const after = await t.api('GET', '/api/branch', { token: admin });
    expect(after.body.branches.length).toBe(before.body.branches.length);
  });

  it('refuses a duplicate name in another case with 409', async () => {
    await makeBranch(t.deps.db, { name: 'Matara' });
    const res = await t.api('POST', '/api/branch', { token: admin, body: { name: 'MATARA', location: 'Somewhere' } });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('A branch with this name already exists.');
  });

  it('answers 404 for an unknown or malformed id', async () => {
    expect(
      (
        await t.api('PUT', '/api/branch/3f0e8a52-1b7c-4d7e-9a43-111111111111', {
          token: admin,
          body: { name: 'a', location: 'b' },
        })
      ).status,
    ).toBe(404);
    expect((await t.api('DELETE', '/api/branch/not-a-uuid', { token: admin })).status).toBe(404);
    expect((await t.api('GET', '/api/branch/123', { token: admin })).status).toBe(404);
  });

  it('refuses to delete a branch while it has users, naming how many', async () => {
    const branch = await makeBranch(t.deps.db);
    await makeUser(t.deps.db, { branchId: branch.id });
    await makeUser(t.deps.db, { branchId: branch.id });
    const res = await t.api('DELETE', `/api/branch/${branch.id}`, { token: admin });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('This branch has 2 users. Move or delete them before deleting the branch.');
    expect((await t.api('GET', `/api/branch/${branch.id}`, { token: admin })).status).toBe(200);
  });

  it('lets a manager read but not change branches', async () => {
    const branch = await makeBranch(t.deps.db);
    expect(
      (await t.api('PUT', `/api/branch/${branch.id}`, { token: manager, body: { name: 'x', location: 'y' } })).status,
    ).toBe(403);
    expect((await t.api('DELETE', `/api/branch/${branch.id}`, { token: manager })).status).toBe(403);
  });
});

describe('branches over tRPC', () => {
  it('pages, sorts and searches on the server', async () => {
    for (const n of ['Zeta Search', 'Alpha Search', 'Mid Search'])
      await makeBranch(t.deps.db, { name: n, location: 'Search Town' });
    const client = t.trpc(manager);
    const page1 = await client.branches.list.query({ search: 'search', pageSize: 2, sortBy: 'name', sortDir: 'asc' });
    expect(page1.total).toBe(3);
    expect(page1.items.map((b) => b.name)).toEqual(['Alpha Search', 'Mid Search']);
    const page2 = await client.branches.list.query({
      search: 'SEARCH',
      pageSize: 2,
      page: 2,
      sortBy: 'name',
      sortDir: 'asc',
    });
    expect(page2.items.map((b) => b.name)).toEqual(['Zeta Search']);
    const literal = await client.branches.list.query({ search: '%' });
    expect(literal.total).toBe(0);
  });

  it('carries the validation message to the client', async () => {
    await expect(t.trpc(admin).branches.create.mutate({ name: '', location: 'x' })).rejects.toMatchObject({
      message: 'Please fill all the required fields.',
      data: { code: 'BAD_REQUEST', httpStatus: 400 },
    });
  });

  it('deletes through tRPC and refuses a branch with users with CONFLICT', async () => {
    const client = t.trpc(admin);
    const b = await client.branches.create.mutate({ name: 'Trinco', location: 'Harbour' });
    await makeUser(t.deps.db, { branchId: b._id });
    await expect(client.branches.delete.mutate({ id: b._id })).rejects.toMatchObject({
      message: 'This branch has 1 user. Move or delete them before deleting the branch.',
      data: { code: 'CONFLICT' },
    });
  });
});
