import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app';
import { makeBranch, type MadeUser } from '../helpers/factories';
import {
  at,
  dayFromToday,
  makeBooking,
  makePractitioner,
  makeTimedTreatment,
  TZ,
} from '../helpers/appointment-factories';

/**
 * The portal's refusals name a stable code beside the English message (docs/portal.md#refusals),
 * the same on REST (`refusal`) and tRPC (`data.refusal`); the cut-off names the branch's phone,
 * else the organisation's; How to pay shows the organisation's bank details and the branches'
 * phones (docs/portal.md#what-a-person-sees).
 */
let t: TestApp;
let admin: MadeUser & { token: string };
let kandy: { id: string };
let galle: { id: string };
let treatment: { id: string };
let practitioner: { id: string };

const ORG_PHONE = '+94 11 234 5678';
const KANDY_PHONE = '+94812223344';

async function setPortal(body: Record<string, unknown>) {
  const res = await t.api('PUT', '/api/settings/portal', {
    token: admin.token,
    body: { selfBooking: false, cancelHours: 24, minNoticeHours: 12, maxDaysAhead: 30, ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

async function appointmentAt(bookingId: string, branchId: string, day: string, hhmm: string) {
  const res = await t.api('POST', '/api/appointments', {
    token: admin.token,
    body: { bookingId, practitionerId: practitioner.id, branchId, start: at(day, hhmm) },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body._id as string;
}

beforeAll(async () => {
  t = await startTestApp();
  expect(t.deps.config.TIME_ZONE).toBe(TZ);
  admin = await t.userWithSession('admin');
  const org = await t.api('PUT', '/api/settings/organisation', {
    token: admin.token,
    body: { name: 'Lotus', address: '', phone: ORG_PHONE, email: '', receiptFooter: 'Thank you' },
  });
  expect(org.status, JSON.stringify(org.body)).toBe(200);
  const k = await t.api('POST', '/api/branch', {
    token: admin.token,
    body: { name: 'Kandy', location: 'Peradeniya Road', phone: '081 222 3344' },
  });
  expect(k.status, JSON.stringify(k.body)).toBe(201);
  kandy = { id: k.body._id };
  galle = await makeBranch(t.deps.db, { name: 'Galle' });
  treatment = await makeTimedTreatment(t.deps.db, { maxSessions: 5 });
  practitioner = await makePractitioner(t.deps.db, {
    branchIds: [kandy.id, galle.id],
    treatmentIds: [treatment.id],
  });
});
afterAll(() => t.close());

describe('branch phone and bank details', () => {
  it('a branch keeps an optional phone (E.164): set, kept when left out, removed when blank', async () => {
    const got = await t.api('GET', `/api/branch/${kandy.id}`, { token: admin.token });
    expect(got.body).toMatchObject({ name: 'Kandy', location: 'Peradeniya Road', phone: KANDY_PHONE });
    const kept = await t.api('PUT', `/api/branch/${kandy.id}`, {
      token: admin.token,
      body: { name: 'Kandy', location: 'Peradeniya Road 2' },
    });
    expect(kept.status, JSON.stringify(kept.body)).toBe(200);
    expect(kept.body.phone).toBe(KANDY_PHONE);
    const bad = await t.api('PUT', `/api/branch/${kandy.id}`, {
      token: admin.token,
      body: { name: 'Kandy', location: 'Peradeniya Road', phone: 'call us' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Branch phone is not a valid phone number.');
    const other = await t.api('GET', `/api/branch/${galle.id}`, { token: admin.token });
    expect(other.body.phone).toBeNull();
    const cleared = await t.api('PUT', `/api/branch/${galle.id}`, {
      token: admin.token,
      body: { name: 'Galle', location: 'Fort', phone: '' },
    });
    expect(cleared.body.phone).toBeNull();
  });

  it('admins write the bank details in Settings → Organisation; a save without them keeps them', async () => {
    const bank = 'Lotus Institute\nBank of Ceylon, Kandy\nAccount 123 456 789';
    const saved = await t.api('PUT', '/api/settings/organisation', {
      token: admin.token,
      body: { name: 'Lotus', address: '', phone: ORG_PHONE, email: '', receiptFooter: 'Thank you', bankDetails: bank },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.bankDetails).toBe(bank);
    const again = await t.api('PUT', '/api/settings/organisation', {
      token: admin.token,
      body: { name: 'Lotus', address: '', phone: ORG_PHONE, email: '', receiptFooter: 'Thank you' },
    });
    expect(again.body.bankDetails).toBe(bank);
    const manager = await t.userWithSession('manager');
    const refused = await t.api('PUT', '/api/settings/organisation', {
      token: manager.token,
      body: { name: 'X', address: '', phone: '', email: '', receiptFooter: '', bankDetails: 'Mine' },
    });
    expect(refused.status).toBe(403);

    const person = await t.userWithSession('student', { branchId: kandy.id });
    const how = await t.api('GET', '/api/portal/how-to-pay', { token: person.token });
    expect(how.status).toBe(200);
    expect(how.body.organisation).toMatchObject({ bankDetails: bank, phone: ORG_PHONE });
    expect(how.body.branches).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'Kandy', phone: KANDY_PHONE }),
        expect.objectContaining({ name: 'Galle', phone: null }),
      ]),
    );
  });
});

describe('refusal codes', () => {
  it('the cut-off names the branch phone first, else the organisation phone, with its code on REST and tRPC', async () => {
    const carol = await t.userWithSession('customer', { branchId: kandy.id });
    const booking = (await makeBooking(t, admin.token, treatment.id, carol)).id;
    const atKandy = await appointmentAt(booking, kandy.id, dayFromToday(2), '10:00');
    const atGalle = await appointmentAt(booking, galle.id, dayFromToday(2), '14:00');
    await setPortal({ cancelHours: 24 * 4 });

    const late = await t.api('POST', `/api/portal/appointments/${atKandy}/cancel`, { token: carol.token, body: {} });
    expect(late.status).toBe(409);
    // The documented English message stays, with the code beside it.
    expect(late.body.message).toBe(
      `Appointments can be cancelled here up to 96 hours before they start; to cancel this one, please call ${KANDY_PHONE}.`,
    );
    expect(late.body.refusal).toEqual({ code: 'cancel_too_late', params: { hours: 96, phone: KANDY_PHONE } });

    const viaTrpc = await t
      .trpc(carol.token)
      .portal.cancelAppointment.mutate({ id: atGalle })
      .catch((e: unknown) => e);
    expect(viaTrpc).toMatchObject({
      data: { code: 'CONFLICT', refusal: { code: 'cancel_too_late', params: { hours: 96, phone: ORG_PHONE } } },
    });

    const list = await t.api('GET', '/api/portal/appointments', { token: carol.token });
    const byId = new Map(list.body.data.map((a: { _id: string }) => [a._id, a]));
    expect(byId.get(atKandy)).toMatchObject({ canCancel: false, clinicPhone: KANDY_PHONE });
    expect(byId.get(atGalle)).toMatchObject({ canCancel: false, clinicPhone: ORG_PHONE });
    await setPortal({});
  });

  it('self-booking off, the window, a time taken and no sessions left each name their code', async () => {
    const dave = await t.userWithSession('customer', { branchId: kandy.id });
    const treat = await makeTimedTreatment(t.deps.db, { maxSessions: 1 });
    await makePractitioner(t.deps.db, { branchIds: [kandy.id], treatmentIds: [treat.id] });
    const booking = (await makeBooking(t, admin.token, treat.id, dave)).id;
    const book = (start: string) =>
      t.api('POST', '/api/portal/appointments', { token: dave.token, body: { bookingId: booking, start } });

    await setPortal({ selfBooking: false });
    const off = await book(at(dayFromToday(3), '10:00'));
    expect(off.status).toBe(403);
    expect(off.body.refusal).toEqual({ code: 'self_booking_off', params: { phone: KANDY_PHONE } });

    await setPortal({ selfBooking: true, minNoticeHours: 12, maxDaysAhead: 10 });
    const far = await book(at(dayFromToday(12), '10:00'));
    expect(far.body.refusal).toEqual({ code: 'too_far', params: { days: 10 } });
    const soon = await book(new Date(Date.now() + 3_600_000).toISOString().replace(/:\d\d\.\d{3}Z$/, ':00.000Z'));
    expect(soon.body.refusal).toEqual({ code: 'too_soon', params: { hours: 12 } });
    // A time no practitioner is free at (the middle of the night).
    const taken = await book(at(dayFromToday(3), '03:00'));
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({
      message: 'That time is not free any more. Please choose another time.',
      refusal: { code: 'slot_taken' },
    });
    const first = await book(at(dayFromToday(3), '10:00'));
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const none = await book(at(dayFromToday(4), '10:00'));
    expect(none.status).toBe(409);
    expect(none.body.refusal).toEqual({ code: 'no_sessions_left', params: { max: 1 } });
    await setPortal({});
  });

  it("another person's record, a bad field and a wrong sign-in code each name their code", async () => {
    const erin = await t.userWithSession('customer', { branchId: kandy.id });
    const missing = await t.api('GET', '/api/portal/bookings/00000000-0000-4000-8000-000000000000', {
      token: erin.token,
    });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({
      message: 'Booking not found.',
      refusal: { code: 'not_found', params: { what: 'booking' } },
    });

    const phone = await t.api('PUT', '/api/portal/profile', { token: erin.token, body: { phone: 'not a phone' } });
    expect(phone.status).toBe(400);
    expect(phone.body.refusal).toEqual({ code: 'invalid_input', params: { field: 'phone' } });
    await expect(t.trpc(erin.token).portal.saveProfile.mutate({ phone: 'nope' })).rejects.toMatchObject({
      data: { code: 'BAD_REQUEST', refusal: { code: 'invalid_input', params: { field: 'phone' } } },
    });

    const wrong = await t.api('POST', '/api/portal/code/verify', {
      body: { email: 'nobody@example.com', code: '123456' },
      headers: { 'x-forwarded-for': '203.0.113.77' },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ message: 'Invalid code. Please try again.', refusal: { code: 'code_invalid' } });

    const invitation = await t.api('POST', '/api/portal/invitation/accept', {
      body: { token: 'a'.repeat(43), password: 'long enough password' },
      headers: { 'x-forwarded-for': '203.0.113.78' },
    });
    expect(invitation.status).toBe(400);
    expect(invitation.body.refusal).toEqual({ code: 'invitation_invalid' });
  });
});
