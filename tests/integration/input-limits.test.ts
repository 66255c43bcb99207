import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app';

/** The inputs that once answered 500 (docs/security.md, "Input limits"): each is a 400 with a clear message. */
let t: TestApp;
let token: string;
let enrollmentId: string;
let bookingId: string;

beforeAll(async () => {
  t = await startTestApp();
  token = (await t.userWithSession('superadmin')).token;
  const api = t.trpc(token);
  const student = await t.userWithSession('student');
  const customer = await t.userWithSession('customer');
  const course = await api.courses.create.mutate({
    courseName: 'Limits course',
    duration: '1 month',
    totalFee: 3000,
    installments: 3,
    category: 'Limits',
    admissionFee: 0,
  });
  enrollmentId = (
    await api.enrollments.create.mutate({ email: student.email, courseId: course._id, paymentType: 'installment' })
  )._id;
  const treatment = await api.treatments.create.mutate({
    treatmentName: 'Limits therapy',
    localPrice: 900,
    foreignPrice: 9,
    maxSessions: 4,
    installments: 2,
  });
  bookingId = (
    await api.bookings.book.mutate({
      treatmentId: treatment._id,
      email: customer.email,
      userType: 'local',
      paymentType: 'installment',
    })
  )._id;
}, 60_000);
afterAll(() => t?.close());

const get = (path: string) => t.api('GET', path, { token });

describe('bad input answers 400 with a clear message, never 500', () => {
  it('refuses the NUL character in text and search fields', async () => {
    const created = await t.api('POST', '/api/branch', {
      token,
      body: { name: 'North\u0000', location: 'Main street' },
    });
    expect(created).toMatchObject({
      status: 400,
      body: { message: 'Branch name contains characters that are not allowed (control characters such as NUL).' },
    });
    const searched = await get(`/api/course/filtered?search=${encodeURIComponent('a\u0000b')}`);
    expect(searched).toMatchObject({
      status: 400,
      body: { message: 'Search contains characters that are not allowed (control characters such as NUL).' },
    });
    await expect(t.trpc(token).users.list.query({ search: '\u0000' })).rejects.toMatchObject({
      data: { httpStatus: 400 },
    });
  });

  it('keeps newlines in multi-line text', async () => {
    const saved = await t.api('PUT', `/api/users/profile`, { token, body: { address: 'Line 1\nLine 2' } });
    expect(saved.status).toBe(200);
  });

  it('bounds dates to the years 1900-2100', async () => {
    expect(await get('/api/course/filtered?startDate=0000-01-01')).toMatchObject({
      status: 400,
      body: { message: 'Start date must be between 1900 and 2100.' },
    });
    expect(await get('/api/course/filtered?endDate=%2B275760-09-13')).toMatchObject({
      status: 400,
      body: { message: 'Dates must be valid dates (YYYY-MM-DD).' },
    });
    expect(await get('/api/course-reports/excel?endDate=9999-12-31')).toMatchObject({
      status: 400,
      body: { message: 'End Date must be between 1900 and 2100.' },
    });
    expect((await get('/api/course-reports/excel?format=json&startDate=1900-01-01&endDate=2100-12-31')).status).toBe(
      200,
    );
    const note = await t
      .trpc(token)
      .bookings.saveNote.mutate({ id: bookingId, sessionNumber: 1, note: '', date: '0000-01-01T00:00:00Z' })
      .catch((e: unknown) => e);
    expect(note).toMatchObject({ message: 'A note date must be between 1900 and 2100.', data: { httpStatus: 400 } });
  });

  it('bounds money filters to the stored range', async () => {
    expect(await get('/api/course-reports/excel?format=json&minFee=1e308')).toMatchObject({
      status: 400,
      body: { message: 'Min Fee must be between 0 and 9,999,999,999.99.' },
    });
    expect(await get('/api/treatment-reports/excel?maxPrice=9223372036854775808')).toMatchObject({
      status: 400,
      body: { message: 'Max Price must be between 0 and 9,999,999,999.99.' },
    });
    expect(await get('/api/course/filtered?maxFee=9223372036854775808')).toMatchObject({
      status: 400,
      body: { message: 'Maximum fee must be between 0 and 9,999,999,999.99.' },
    });
  });

  it('bounds whole numbers to what the database holds', async () => {
    const enrollment = await t.api('POST', `/api/enrollments/${enrollmentId}/pay-installment`, {
      token,
      body: { installmentIndex: 2147483648, isPaid: true },
    });
    expect(enrollment).toMatchObject({ status: 400, body: { message: 'Installment not found.' } });
    const booking = await t.api('POST', `/api/bookings/${bookingId}/pay-installment`, {
      token,
      body: { installmentIndex: 2147483648, isPaid: true },
    });
    expect(booking).toMatchObject({ status: 400, body: { message: 'Installment not found.' } });
    expect(await get('/api/enrollments?page=200000')).toMatchObject({
      status: 400,
      body: { message: 'page must be at most 100000.' },
    });
  });

  it('answers a bad format=json report with 400 before any row is sent', async () => {
    const res = await get('/api/course-reports/enrollments?format=json&startDate=0000-01-01');
    expect(res).toMatchObject({ status: 400, body: { message: 'Start Date must be between 1900 and 2100.' } });
  });
});
