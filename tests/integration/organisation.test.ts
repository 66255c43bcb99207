import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todayIn } from '../../src/shared/calendar';
import { startTestApp, type TestApp } from '../helpers/app';
import { waitForEmail, withoutQuietHours } from '../helpers/email';
import { makeBranch, makeUser, postCourse, type MadeUser } from '../helpers/factories';
import { download, readPdfText } from '../helpers/report-factories';

/**
 * Settings → Organisation (docs/users.md#the-organisation-on-paper): read by staff, written by
 * admins, and printed on receipts, e-mails and the cash-up's files, with the tills of the day.
 */
let t: TestApp;
let admin: MadeUser & { token: string };
let manager: MadeUser & { token: string };
let branchId: string;

const ORG = {
  name: 'Lotus Institute & Clinic',
  address: '12 Temple Road\nGalle',
  phone: '+94 91 222 3333',
  email: 'office@lotus.example',
  receiptFooter: 'Thank you. Fees once paid are not refundable.',
};

beforeAll(async () => {
  t = await startTestApp();
  await withoutQuietHours(t.deps.db);
  branchId = (await makeBranch(t.deps.db, { name: 'Galle Fort' })).id;
  admin = await t.userWithSession('admin');
  manager = await t.userWithSession('manager', { branchId });
});
afterAll(() => t.close());

async function logoUpload(token: string, bytes: Buffer, type = 'image/png') {
  const form = new FormData();
  form.append('logo', new Blob([new Uint8Array(bytes)], { type }), 'logo.png');
  const res = await fetch(`${t.baseUrl}/api/settings/organisation/logo`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('the organisation settings', () => {
  it('answers the product name until one is stored, to staff only', async () => {
    const res = await t.api('GET', '/api/settings/organisation', { token: manager.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      name: t.deps.config.APP_NAME,
      address: '',
      phone: '',
      email: '',
      receiptFooter: '',
      bankDetails: '',
      logoUrl: null,
    });
    const student = await t.userWithSession('student');
    expect((await t.api('GET', '/api/settings/organisation', { token: student.token })).status).toBe(403);
    expect((await t.api('GET', '/api/settings/organisation')).status).toBe(401);
  });

  it('lets admins write it (trimmed), not managers, and refuses bad input with 400', async () => {
    expect((await t.api('PUT', '/api/settings/organisation', { token: manager.token, body: ORG })).status).toBe(403);
    await expect(t.trpc(manager.token).settings.updateOrganisation.mutate(ORG)).rejects.toMatchObject({
      data: { code: 'FORBIDDEN' },
    });
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...ORG, email: 'not-an-address' }, 'E-mail must be a valid e-mail address.'],
      [{ ...ORG, name: 'x'.repeat(201) }, 'Organisation name must be at most 200 characters.'],
      [{ ...ORG, receiptFooter: 'y'.repeat(501) }, 'Receipt footer must be at most 500 characters.'],
      [{ ...ORG, phone: 42 }, 'Phone must be text.'],
    ];
    for (const [body, message] of cases) {
      const res = await t.api('PUT', '/api/settings/organisation', { token: admin.token, body });
      expect(res.status, message).toBe(400);
      expect(res.body.message).toBe(message);
    }
    const saved = await t.api('PUT', '/api/settings/organisation', {
      token: admin.token,
      body: { ...ORG, name: `  ${ORG.name} ` },
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({ ...ORG, bankDetails: '', logoUrl: null });
    expect(await t.trpc(manager.token).settings.getOrganisation.query()).toEqual({
      ...ORG,
      bankDetails: '',
      logoUrl: null,
    });
  });

  it('takes a logo as a multipart form, admins only, served from the files path', async () => {
    const png = await sharp({ create: { width: 40, height: 20, channels: 3, background: '#1f4e79' } })
      .png()
      .toBuffer();
    expect((await logoUpload(manager.token, png)).status).toBe(403);
    const bad = await logoUpload(admin.token, Buffer.from('not a picture'), 'text/plain');
    expect(bad).toMatchObject({ status: 400, body: { message: 'The picture must be a JPEG, PNG or WebP image.' } });
    const ok = await logoUpload(admin.token, png);
    expect(ok.status).toBe(200);
    expect(ok.body.logoUrl).toMatch(/^\/api\/files\/[0-9a-f-]{36}$/);
    const file = await download(t.baseUrl, 'GET', ok.body.logoUrl as string, { token: manager.token });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/png');
  });
});

describe('on paper', () => {
  it('prints the organisation on the receipt, its e-mail, and the cash-up with the day’s tills', async () => {
    await t.api('PUT', '/api/settings/organisation', { token: admin.token, body: ORG });
    const student = await makeUser(t.deps.db, { role: 'student', branchId });
    const courseId = await postCourse(t, admin.token, 'Paper', { totalFee: 10000, admissionFee: 0, installments: 1 });
    const e = await t.api('POST', '/api/enrollments', {
      token: admin.token,
      body: { email: student.email, courseId, paymentType: 'installment' },
    });
    const till = await t.api('POST', '/api/tills', {
      token: manager.token,
      body: { branchId, openingFloat: [{ currency: 'LKR', amount: 1000 }] },
    });
    const p = await t.api('POST', '/api/payments', {
      token: manager.token,
      body: { enrollmentId: e.body._id, amount: 2500, method: 'cash' },
    });
    expect(p.status).toBe(201);
    await t.api('POST', `/api/tills/${till.body._id}/close`, {
      token: manager.token,
      body: { counted: [{ currency: 'LKR', amount: 3400 }], note: 'Short by 100' },
    });

    const receipt = await download(t.baseUrl, 'GET', `/api/payments/${p.body._id}/receipt`, { token: manager.token });
    expect(receipt.status).toBe(200);
    const text = (await readPdfText(receipt.bytes)).join('\n');
    expect(text).toContain(ORG.name);
    expect(text).toContain('12 Temple Road, Galle · +94 91 222 3333 · office@lotus.example');
    expect(text).toContain(ORG.receiptFooter);
    expect(text).not.toContain(t.deps.config.APP_NAME);

    expect((await t.api('POST', `/api/payments/${p.body._id}/email`, { token: manager.token })).status).toBe(202);
    const mail = await waitForEmail(t.deps.db, student.email);
    // The payment_received message: its template signs with the organisation, the receipt ends with its footer.
    expect(mail.subject).toBe(`Receipt ${p.body.receiptNumber}: payment of Rs. 2,500.00 received - ${ORG.name}`);
    expect(mail.text).toContain(`\n${ORG.name}\n`);
    expect(mail.text).not.toContain(t.deps.config.APP_NAME);
    expect(mail.text.trimEnd().endsWith(ORG.receiptFooter)).toBe(true);

    const day = todayIn(t.deps.config.TIME_ZONE);
    const pdf = await download(
      t.baseUrl,
      'GET',
      `/api/payments/cash-up/pdf?from=${day}&to=${day}&branchId=${branchId}`,
      {
        token: manager.token,
      },
    );
    expect(pdf.status).toBe(200);
    const cashUp = (await readPdfText(pdf.bytes)).join('\n').replace(/\s+/g, ' ');
    expect(cashUp).toContain(ORG.name);
    expect(cashUp).toContain(
      `Till of ${manager.username} at Galle Fort (${day}): float Rs. 1,000.00, expected Rs. 3,500.00, counted Rs. 3,400.00, difference -Rs. 100.00, closed by ${manager.username} (Short by 100)`,
    );
  });
});
