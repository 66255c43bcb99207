import { randomBytes, randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app';
import { makeBranch } from '../helpers/factories';

let t: TestApp;
let branchId: string;
let admin: { id: string; token: string };
beforeAll(async () => {
  t = await startTestApp();
  branchId = (await makeBranch(t.deps.db)).id;
  admin = await t.userWithSession('admin', { branchId });
});
afterAll(() => t.close());

const uniq = () => randomBytes(4).toString('hex');
/** A local mobile number nobody else in this run has: 077 followed by seven random digits. */
const localMobile = () => `077${String(randomInt(0, 10_000_000)).padStart(7, '0')}`;
/** An old-form NIC of a man born on 1990-01-31 (day 031), with random serial digits. */
const oldNic = (day = '031', year = '90') => `${year}${day}${String(randomInt(0, 10_000)).padStart(4, '0')}V`;

function body(extra: Record<string, unknown> = {}) {
  const s = uniq();
  return {
    username: `person_${s}`,
    fullName: `Person ${s}`,
    email: `person.${s}@example.com`,
    password: 'long-enough-pw',
    branch: branchId,
    ...extra,
  };
}

const create = (extra: Record<string, unknown>) =>
  t.api('POST', '/api/users', { token: admin.token, body: body(extra) });

describe('personal details on POST /api/users and PUT /api/users/{id}', () => {
  it('stores each field, answers it on GET, and keeps the phone in E.164', async () => {
    const phone = localMobile();
    const nic = oldNic('531'); // a woman born on 1990-01-31
    const created = await create({
      phone,
      address: '12 Galle Road, Colombo 3',
      nic: nic.toLowerCase(),
      dateOfBirth: '1990-01-31',
      gender: 'female',
      emergencyContact: { name: 'Kamala Perera', relation: 'Mother', phone: '011 222 3333' },
    });
    expect(created.status).toBe(201);
    const got = await t.api('GET', `/api/users/${created.body._id}`, { token: admin.token });
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({
      phone: `+94${phone.slice(1)}`,
      address: '12 Galle Road, Colombo 3',
      nic,
      dateOfBirth: '1990-01-31',
      gender: 'female',
      emergencyContact: { name: 'Kamala Perera', relation: 'Mother', phone: '+94112223333' },
    });

    // Each field changes alone; the others stay.
    const id = created.body._id as string;
    const put = (b: Record<string, unknown>) => t.api('PUT', `/api/users/${id}`, { token: admin.token, body: b });
    expect((await put({ phone: '+94 71 555 0101' })).body).toMatchObject({ phone: '+94715550101', nic });
    expect((await put({ address: 'Kandy' })).body).toMatchObject({ address: 'Kandy', gender: 'female' });
    expect((await put({ gender: 'other' })).body).toMatchObject({ gender: 'other' });
    const newNic = `199053100${randomInt(100, 1000)}`; // the same birth day in the new form
    expect((await put({ nic: newNic })).body).toMatchObject({ nic: newNic, dateOfBirth: '1990-01-31' });
    expect((await put({ emergencyContact: { name: 'Sunil', phone: '0777 123 456' } })).body).toMatchObject({
      emergencyContact: { name: 'Sunil', relation: null, phone: '+94777123456' },
    });
    // Blank clears.
    const cleared = await put({ phone: '', nic: '', dateOfBirth: '', gender: '', emergencyContact: null });
    expect(cleared.body).toMatchObject({
      phone: null,
      nic: null,
      dateOfBirth: null,
      gender: null,
      emergencyContact: null,
    });
  });

  it('takes the details through tRPC and the multipart form too', async () => {
    const trpc = t.trpc(admin.token);
    const nic = `2000010${String(randomInt(0, 100_000)).padStart(5, '0')}`; // 2000, day 010
    const made = await trpc.users.create.mutate({
      ...body(),
      branchId,
      nic,
      dateOfBirth: '2000-01-10',
      gender: 'male',
    });
    expect(made).toMatchObject({ nic, dateOfBirth: '2000-01-10', gender: 'male' });
    const form = new FormData();
    form.append('emergencyContact', JSON.stringify({ name: 'Ravi', relation: 'Brother', phone: '0712345678' }));
    form.append('phone', '071 234 5679');
    const res = await fetch(`${t.baseUrl}/api/users/${made._id}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${admin.token}` },
      body: form,
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      phone: '+94712345679',
      emergencyContact: { name: 'Ravi', relation: 'Brother', phone: '+94712345678' },
    });
  });

  it('answers 400 naming the field for a malformed NIC, phone, date or gender', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ nic: '12345' }, 'NIC must be 9 digits followed by V or X, or 12 digits.'],
      [{ nic: '123456789Z' }, 'NIC must be 9 digits followed by V or X, or 12 digits.'],
      [{ nic: '904001234V' }, 'NIC has a birth day number that does not exist.'],
      [{ nic: '900001234V' }, 'NIC has a birth day number that does not exist.'],
      [{ nic: '199087012345' }, 'NIC has a birth day number that does not exist.'],
      [{ nic: oldNic('031'), dateOfBirth: '1990-02-01' }, 'NIC does not match the date of birth.'],
      [{ nic: oldNic('031', '91'), dateOfBirth: '1990-01-31' }, 'NIC does not match the date of birth.'],
      [{ phone: '12' }, 'Phone is not a valid phone number.'],
      [{ phone: 'call me' }, 'Phone is not a valid phone number.'],
      [{ dateOfBirth: '1990-02-30' }, 'Date of birth must be a date (YYYY-MM-DD) between 1900 and 2100.'],
      [{ dateOfBirth: '31/01/1990' }, 'Date of birth must be a date (YYYY-MM-DD) between 1900 and 2100.'],
      [{ gender: 'unknown' }, 'Gender must be female, male or other.'],
      [{ emergencyContact: { name: 'Ama', phone: '99' } }, 'Emergency contact phone is not a valid phone number.'],
      [{ emergencyContact: { relation: 'Aunt', phone: '0771234567' } }, 'Emergency contact name is required.'],
      [{ emergencyContact: { name: 'Ama' } }, 'Emergency contact phone is required.'],
    ];
    const existing = await create({});
    for (const [fields, message] of cases) {
      const posted = await create(fields);
      expect({ fields, status: posted.status, message: posted.body.message }).toEqual({ fields, status: 400, message });
      const put = await t.api('PUT', `/api/users/${existing.body._id}`, { token: admin.token, body: fields });
      expect({ fields, status: put.status, message: put.body.message }).toEqual({ fields, status: 400, message });
    }
  });

  it('checks a NIC against the birth day already kept, and counts days as the registry does', async () => {
    const made = await create({ dateOfBirth: '1990-01-31' });
    const id = made.body._id as string;
    const put = (b: Record<string, unknown>) => t.api('PUT', `/api/users/${id}`, { token: admin.token, body: b });
    const wrong = await put({ nic: oldNic('032') });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe('NIC does not match the date of birth.');
    // 1990 is a common year: the card may count 1 March as day 061 (registry) or 060 (plain).
    for (const day of ['061', '060']) {
      const ok = await put({ nic: oldNic(day), dateOfBirth: '1990-03-01' });
      expect(ok.status).toBe(200);
    }
    const laterDay = await put({ dateOfBirth: '1990-05-05' });
    expect(laterDay.status).toBe(400);
    expect(laterDay.body.message).toBe('NIC does not match the date of birth.');
  });

  it('refuses a NIC another user has with 409, on create and on edit', async () => {
    const nic = oldNic();
    expect((await create({ nic })).status).toBe(201);
    const again = await create({ nic: nic.toLowerCase() });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('A user with this NIC already exists.');
    const other = await create({});
    const edit = await t.api('PUT', `/api/users/${other.body._id}`, { token: admin.token, body: { nic } });
    expect(edit.status).toBe(409);
    expect(edit.body.message).toBe('A user with this NIC already exists.');
  });

  it('finds a user whose phone is stored in E.164 by its local form, and by NIC', async () => {
    const phone = localMobile();
    const nic = oldNic();
    const made = await create({ phone: `+94 ${phone.slice(1)}`, nic });
    const trpc = t.trpc(admin.token);
    for (const query of [phone, `${phone.slice(0, 3)} ${phone.slice(3)}`, nic.toLowerCase()]) {
      const found = await trpc.users.search.query({ query });
      expect({ query, ids: found.map((u) => u._id) }).toEqual({ query, ids: [made.body._id] });
    }
    const page = await trpc.users.list.query({ search: phone, page: 1, pageSize: 10 });
    expect(page.items.map((u) => u._id)).toEqual([made.body._id]);
  });

  it('keeps personal details a staff matter', async () => {
    const student = await t.userWithSession('student', { branchId });
    const res = await t.api('POST', '/api/users', { token: student.token, body: body({ nic: oldNic() }) });
    expect(res.status).toBe(403);
  });
});
