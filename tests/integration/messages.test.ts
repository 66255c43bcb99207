import http from 'node:http';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { auditLog, messages, messageSettings, messageTemplates, users } from '../../src/server/db/schema';
import { optOutToken } from '../../src/server/domains/messages/opt-out';
import { MESSAGE_PLACEHOLDERS } from '../../src/shared/schemas/messages';
import { loadSavedTemplates, renderText, templateFor } from '../../src/server/domains/messages/templates';
import { afterQuietHours, defaultMessageSettings } from '../../src/server/domains/messages/settings';
import { wallClockOf, hhmm } from '../../src/shared/zoned-time';
import { startTestApp, type TestApp } from '../helpers/app';
import { makeBranch, makeUser, type MadeUser } from '../helpers/factories';
import {
  at,
  dayFromToday,
  makeBooking,
  makePractitioner,
  makeTimedTreatment,
  TZ,
} from '../helpers/appointment-factories';
import { fakeSmsGateway } from '../helpers/sms-gateway';
import { waitFor } from './reminders.fixtures';

/**
 * Messages (docs/messages.md) on a real PostgreSQL with the in-process job driver: what each
 * appointment change plans and sends, reminders and their withdrawal, switches, opt-outs, quiet
 * hours, templates and their preview, the HTTP SMS gateway (a stand-in on the loopback), the
 * signed opt-out link, the log and resend, and who may call what.
 */
let t: TestApp;
let admin: MadeUser & { token: string };
let manager: MadeUser & { token: string };
const gateway = fakeSmsGateway();

/** Resend's POST /emails on the loopback: records what it was sent, answers an id. */
const resendRequests: Array<{ key: string | undefined; body: Record<string, unknown> }> = [];
const resend = http.createServer((req, res) => {
  let raw = '';
  req.on('data', (c) => (raw += c));
  req.on('end', () => {
    resendRequests.push({ key: req.headers['idempotency-key'] as string | undefined, body: JSON.parse(raw) });
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ id: `email_${resendRequests.length}` }));
  });
});

beforeAll(async () => {
  const url = await gateway.start();
  await new Promise<void>((r) => resend.listen(0, '127.0.0.1', r));
  t = await startTestApp({
    RESEND_API_KEY: 're_test_key',
    RESEND_BASE_URL: `http://127.0.0.1:${(resend.address() as { port: number }).port}`,
    SMS_GATEWAY_URL: url,
    SMS_GATEWAY_BODY: '{"to":"{to}","text":"{text}","id":"{id}"}',
    SMS_GATEWAY_MESSAGE_ID_PATH: 'data.messageId',
    SMS_GATEWAY_TIMEOUT_MS: 300,
    JOB_BACKOFF_MS: 20,
    JOB_ATTEMPTS: 3,
    APP_ORIGIN: 'https://office.example.com',
  });
  expect(t.deps.config.TIME_ZONE).toBe(TZ);
  admin = await t.userWithSession('admin');
  manager = await t.userWithSession('manager');
});
afterAll(async () => {
  await t.close();
  await gateway.close();
  resend.closeAllConnections();
  await new Promise<void>((r) => resend.close(() => r()));
});

/** Quiet hours off unless a test turns them on: the suite runs at any hour. */
beforeEach(async () => {
  await t.deps.db.delete(messageSettings);
  await putSettings({ ...defaultMessageSettings(), quietHours: null });
});

async function putSettings(body: unknown) {
  const res = await t.api('PUT', '/api/message-settings', { token: admin.token, body });
  expect(res.status).toBe(200);
  return res.body;
}

let phoneSeq = 1000;
const newPhone = () => `+9477123${String(phoneSeq++).padStart(4, '0')}`;

async function clinic(phone: string | null = newPhone()) {
  const branch = await makeBranch(t.deps.db);
  const treatment = await makeTimedTreatment(t.deps.db);
  const practitioner = await makePractitioner(t.deps.db, { branchIds: [branch.id], treatmentIds: [treatment.id] });
  const booking = await makeBooking(t, admin.token, treatment.id);
  await t.deps.db.update(users).set({ phone }).where(eq(users.id, booking.customerId));
  return { branch, treatment, practitioner, booking };
}
type Clinic = Awaited<ReturnType<typeof clinic>>;

async function bookAt(c: Clinic, start: string) {
  const res = await t.api('POST', '/api/appointments', {
    token: admin.token,
    body: { bookingId: c.booking.id, practitionerId: c.practitioner.id, branchId: c.branch.id, start },
  });
  expect(res.status).toBe(201);
  return res.body._id as string;
}

const rowsOf = (entityId: string) =>
  t.deps.db.select().from(messages).where(eq(messages.entityId, entityId)).orderBy(messages.createdAt);

const rowOf = async (entityId: string, event: string, channel: 'email' | 'sms') =>
  (await rowsOf(entityId)).filter((m) => m.event === event && m.channel === channel);

/** Waits until the message row is in one of `statuses`. */
async function settled(entityId: string, event: string, channel: 'email' | 'sms', statuses: string[]) {
  return waitFor(
    async () => {
      const [m] = (await rowOf(entityId, event, channel)).filter((r) => statuses.includes(r.status));
      return m;
    },
    `${event}/${channel} to be ${statuses.join(' or ')}`,
  );
}

describe('appointment messages', () => {
  it('booking sends one confirmation on each channel and schedules the reminder 24 h before', async () => {
    const c = await clinic();
    const day = dayFromToday(5);
    const id = await bookAt(c, at(day, '10:30'));
    const sms = await settled(id, 'appointment_booked', 'sms', ['sent']);
    const email = await settled(id, 'appointment_booked', 'email', ['sent']);
    const [customer] = await t.deps.db.select().from(users).where(eq(users.id, c.booking.customerId));
    expect(sms).toMatchObject({ to: customer!.phone, attempts: 1, transport: 'gateway', language: 'en' });
    expect(sms.providerId).toMatch(/^sms_/);
    expect(sms.text).toContain('10:30');
    expect(sms.text).toContain(c.branch.name);
    expect(email.to).toBe(customer!.email);
    expect(email.text).toContain(`Dear ${customer!.fullName}`);
    expect(email.text).toContain('https://office.example.com/api/messages/opt-out?token=');
    // Through Resend, under the message's own idempotency key, with the RFC 8058 headers.
    expect(email).toMatchObject({ transport: 'resend', providerId: expect.stringMatching(/^email_/) });
    const sentMail = resendRequests.filter((r) => r.key === `message:${email.key}`);
    expect(sentMail).toHaveLength(1);
    expect(sentMail[0]!.body).toMatchObject({
      to: customer!.email,
      headers: {
        'List-Unsubscribe': expect.stringMatching(
          /^<https:\/\/office\.example\.com\/api\/messages\/opt-out\?token=.+>$/,
        ),
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      },
    });
    // Exactly one per channel, and the gateway got the SMS once.
    expect(await rowOf(id, 'appointment_booked', 'sms')).toHaveLength(1);
    expect(gateway.requests.filter((r) => r.id === sms.key)).toHaveLength(1);

    const reminders = await rowOf(id, 'appointment_reminder', 'sms');
    expect(reminders).toHaveLength(1);
    expect(reminders[0]).toMatchObject({ status: 'scheduled', attempts: 0 });
    expect(reminders[0]!.sendAt.toISOString()).toBe(
      new Date(new Date(at(day, '10:30')).getTime() - 86_400_000).toISOString(),
    );
  });

  it('a reminder whose time already passed at booking is skipped; the confirmation still goes', async () => {
    // A reminder two weeks ahead of an appointment two days away: its time passed at booking.
    await putSettings({ ...defaultMessageSettings(), quietHours: null, reminderHours: [336] });
    const c = await clinic();
    const id = await bookAt(c, at(dayFromToday(2), '10:00'));
    const [reminder] = await rowOf(id, 'appointment_reminder', 'sms');
    expect(reminder).toMatchObject({ status: 'skipped', reason: 'inside_reminder_window' });
    const booked = await settled(id, 'appointment_booked', 'sms', ['sent']);
    expect(booked.text).toContain('10:00');
  });

  it('rescheduling withdraws the old reminder, plans one for the new time, and tells old and new times', async () => {
    const c = await clinic();
    const day = dayFromToday(6);
    const id = await bookAt(c, at(day, '09:00'));
    const res = await t.api('PUT', `/api/appointments/${id}`, {
      token: admin.token,
      body: { start: at(day, '14:00') },
    });
    expect(res.status).toBe(200);
    const reminders = await rowOf(id, 'appointment_reminder', 'sms');
    expect(reminders.map((r) => r.status).sort()).toEqual(['scheduled', 'withdrawn']);
    const fresh = reminders.find((r) => r.status === 'scheduled')!;
    expect(fresh.sendAt.toISOString()).toBe(new Date(new Date(at(day, '14:00')).getTime() - 86_400_000).toISOString());
    expect(reminders.find((r) => r.status === 'withdrawn')!.reason).toBe('rescheduled');
    const moved = await settled(id, 'appointment_rescheduled', 'sms', ['sent']);
    expect(moved.text).toContain('09:00');
    expect(moved.text).toContain('14:00');

    // Back to the first time: its reminder is planned again, not lost to the old key.
    await t.api('PUT', `/api/appointments/${id}`, { token: admin.token, body: { start: at(day, '09:00') } });
    const again = await rowOf(id, 'appointment_reminder', 'sms');
    expect(again.filter((r) => r.status === 'scheduled')).toHaveLength(1);
    expect(again.find((r) => r.status === 'scheduled')!.sendAt.toISOString()).toBe(
      new Date(new Date(at(day, '09:00')).getTime() - 86_400_000).toISOString(),
    );
  });

  it('cancelling by the clinic sends the cancellation and withdraws the reminders', async () => {
    const c = await clinic();
    const id = await bookAt(c, at(dayFromToday(7), '11:00'));
    const res = await t.api('POST', `/api/appointments/${id}/status`, {
      token: admin.token,
      body: { status: 'cancelled', reason: 'Therapist ill' },
    });
    expect(res.status).toBe(200);
    await settled(id, 'appointment_cancelled', 'sms', ['sent']);
    const reminders = await rowOf(id, 'appointment_reminder', 'email');
    expect(reminders).toMatchObject([{ status: 'withdrawn', reason: 'cancelled' }]);
  });
});

describe('switches, opt-outs and quiet hours', () => {
  it('a channel switched off, an opted-out person and a missing phone are skipped with the reason', async () => {
    const settings = { ...defaultMessageSettings(), quietHours: null };
    settings.events.appointment_booked = { email: false, sms: true };
    await putSettings(settings);
    const c = await clinic(null);
    const id = await bookAt(c, at(dayFromToday(8), '10:00'));
    expect(await rowOf(id, 'appointment_booked', 'email')).toMatchObject([
      { status: 'skipped', reason: 'switched_off' },
    ]);
    expect(await rowOf(id, 'appointment_booked', 'sms')).toMatchObject([
      { status: 'skipped', reason: 'no_phone', to: null },
    ]);

    const d = await clinic();
    await t.deps.db.update(users).set({ optOutSms: true }).where(eq(users.id, d.booking.customerId));
    const id2 = await bookAt(d, at(dayFromToday(8), '15:00'));
    expect(await rowOf(id2, 'appointment_booked', 'sms')).toMatchObject([{ status: 'skipped', reason: 'opted_out' }]);
  });

  it('an opt-out after planning is honoured when the message is due', async () => {
    const c = await clinic();
    const id = await bookAt(c, at(dayFromToday(9), '10:00'));
    const [reminder] = await rowOf(id, 'appointment_reminder', 'sms');
    expect(reminder!.status).toBe('scheduled');
    await t.deps.db.update(users).set({ optOutSms: true }).where(eq(users.id, c.booking.customerId));
    // The reminder's time comes (moved to now) and its send runs.
    await t.deps.db.update(messages).set({ sendAt: new Date() }).where(eq(messages.id, reminder!.id));
    await t.deps.jobs.enqueue('send-message', { messageId: reminder!.id }, { jobId: `test:${reminder!.id}` });
    const done = await waitFor(async () => {
      const [m] = await t.deps.db.select().from(messages).where(eq(messages.id, reminder!.id));
      return m?.status === 'skipped' ? m : undefined;
    }, 'the reminder to be skipped');
    expect(done.reason).toBe('opted_out');
  });

  it('quiet hours hold a message until they end; a cancellation goes at once', async () => {
    // Quiet hours around now, on the organisation's clock.
    const now = wallClockOf(TZ, new Date());
    const start = hhmm((now.minute + 1440 - 60) % 1440);
    const end = hhmm((now.minute + 60) % 1440);
    await putSettings({ ...defaultMessageSettings(), quietHours: { start, end } });
    const c = await clinic();
    const id = await bookAt(c, at(dayFromToday(10), '10:00'));
    const held = await settled(id, 'appointment_booked', 'sms', ['waiting']);
    const expected = afterQuietHours({ start, end }, TZ, new Date());
    expect(held.sendAt.toISOString()).toBe(expected.toISOString());
    expect(hhmm(wallClockOf(TZ, held.sendAt).minute)).toBe(end);

    expect(
      (
        await t.api('POST', `/api/appointments/${id}/status`, {
          token: admin.token,
          body: { status: 'cancelled', reason: 'Closed' },
        })
      ).status,
    ).toBe(200);
    await settled(id, 'appointment_cancelled', 'sms', ['sent']);
  });
});

describe('templates', () => {
  it('renders every placeholder and leaves unknown braces alone', () => {
    const vars = Object.fromEntries(MESSAGE_PLACEHOLDERS.map((p) => [p, `<${p}>`]));
    const body = MESSAGE_PLACEHOLDERS.map((p) => `{${p}}`).join(' ') + ' {unknown}';
    expect(renderText(body, vars)).toBe(MESSAGE_PLACEHOLDERS.map((p) => `<${p}>`).join(' ') + ' {unknown}');
  });

  it("uses the person's language when there is a text in it, else English", async () => {
    await t.api('PUT', '/api/message-templates', {
      token: admin.token,
      body: [{ event: 'class_moved', channel: 'sms', language: 'si', body: 'පන්තිය {date} {time} ට' }],
    });
    expect(templateFor(await loadSavedTemplates(t.deps.db), 'class_moved', 'sms', 'si')).toMatchObject({
      language: 'si',
      body: 'පන්තිය {date} {time} ට',
    });
    await t.deps.db
      .delete(messageTemplates)
      .where(and(eq(messageTemplates.event, 'class_cancelled'), eq(messageTemplates.language, 'ta')));
    const fallback = templateFor(await loadSavedTemplates(t.deps.db), 'class_cancelled', 'sms', 'ta');
    expect(fallback.language).toBe('en');
  });

  it('a Tamil reader of an event with no Tamil text gets the English one, logged as English', async () => {
    const c = await clinic();
    await t.deps.db.update(users).set({ language: 'ta' }).where(eq(users.id, c.booking.customerId));
    await t.deps.db.delete(messageTemplates).where(eq(messageTemplates.event, 'appointment_cancelled'));
    const id = await bookAt(c, at(dayFromToday(11), '10:00'));
    expect(
      (
        await t.api('POST', `/api/appointments/${id}/status`, {
          token: admin.token,
          body: { status: 'cancelled', reason: 'Closed' },
        })
      ).status,
    ).toBe(200);
    const m = await settled(id, 'appointment_cancelled', 'sms', ['sent']);
    const shipped = templateFor(await loadSavedTemplates(t.deps.db), 'appointment_cancelled', 'sms', 'ta');
    expect(m.language).toBe(shipped.language);
  });

  it('PUT stores only the items sent; GET lists every event and channel in English', async () => {
    const before = await t.api('GET', '/api/message-templates', { token: manager.token });
    expect(before.status).toBe(200);
    const res = await t.api('PUT', '/api/message-templates', {
      token: admin.token,
      body: [
        { event: 'absence', channel: 'email', language: 'en', subject: 'Absent {date}', body: 'You missed {course}.' },
      ],
    });
    expect(res.status).toBe(200);
    const after = res.body as Array<{ event: string; channel: string; language: string; body: string }>;
    expect(after.find((x) => x.event === 'absence' && x.channel === 'email' && x.language === 'en')).toMatchObject({
      subject: 'Absent {date}',
      body: 'You missed {course}.',
    });
    const unchanged = (xs: typeof after) =>
      xs.filter((x) => !(x.event === 'absence' && x.channel === 'email' && x.language === 'en'));
    expect(unchanged(after)).toEqual(unchanged(before.body));
    for (const e of ['appointment_reminder', 'statement', 'installment_due_soon'])
      for (const ch of ['email', 'sms'])
        expect(after.some((x) => x.event === e && x.channel === ch && x.language === 'en')).toBe(true);

    expect((await t.api('PUT', '/api/message-templates', { token: manager.token, body: [] })).status).toBe(403);
    const bad = await t.api('PUT', '/api/message-templates', {
      token: admin.token,
      body: [{ event: 'nothing', channel: 'email', language: 'en', body: 'x' }],
    });
    expect(bad.status).toBe(400);
  });

  it('previews with a real appointment and counts SMS segments for Latin and Sinhala', async () => {
    const c = await clinic();
    const day = dayFromToday(12);
    const id = await bookAt(c, at(day, '16:15'));
    const latin = await t.api('POST', '/api/message-templates/preview', {
      token: manager.token,
      body: {
        event: 'appointment_reminder',
        channel: 'sms',
        language: 'en',
        body: 'See you {date} {time} at {branch}',
        entityId: id,
      },
    });
    expect(latin.status).toBe(200);
    expect(latin.body.text).toContain('16:15');
    expect(latin.body.text).toContain(c.branch.name);
    expect(latin.body).toMatchObject({ encoding: 'GSM-7', segments: 1, characters: latin.body.text.length });
    const sinhala = await t.api('POST', '/api/message-templates/preview', {
      token: manager.token,
      body: { event: 'appointment_reminder', channel: 'sms', language: 'si', body: 'ඔබගේ හමුවීම '.repeat(7) + '{time}' },
    });
    expect(sinhala.body).toMatchObject({ encoding: 'UCS-2', segments: 2 });
    const missing = await t.api('POST', '/api/message-templates/preview', {
      token: manager.token,
      body: { event: 'appointment_reminder', channel: 'sms', language: 'en', body: 'x', entityId: crypto.randomUUID() },
    });
    expect(missing.status).toBe(404);
  });
});

describe('the HTTP SMS gateway', () => {
  it('a 4xx is a refusal: failed after one try, with the reason', async () => {
    const c = await clinic('+94770000400');
    const id = await bookAt(c, at(dayFromToday(13), '10:00'));
    const m = await settled(id, 'appointment_booked', 'sms', ['failed']);
    expect(m.attempts).toBe(1);
    expect(m.reason).toContain('400');
    expect(gateway.requests.filter((r) => r.id === m.key)).toHaveLength(1);
  });

  it('a 5xx is retried with backoff and then sent', async () => {
    gateway.behaviour.failuresLeft = 2;
    const c = await clinic('+94770000500');
    const id = await bookAt(c, at(dayFromToday(13), '11:00'));
    const m = await settled(id, 'appointment_booked', 'sms', ['sent']);
    expect(m.attempts).toBe(3);
    expect(gateway.requests.filter((r) => r.id === m.key)).toHaveLength(3);
  });

  it('a gateway that does not answer times out, is retried, and ends failed with the reason; an admin resends it', async () => {
    const c = await clinic('+94770000999');
    const id = await bookAt(c, at(dayFromToday(13), '15:00'));
    const m = await settled(id, 'appointment_booked', 'sms', ['failed']);
    expect(m.attempts).toBe(3);
    expect(m.reason).toContain('did not answer within 300 ms');

    // The number is corrected and the failed message sent again from the log.
    const fixed = newPhone();
    await t.deps.db.update(messages).set({ to: fixed }).where(eq(messages.id, m.id));
    expect((await t.api('POST', `/api/messages/${m.id}/resend`, { token: manager.token })).status).toBe(403);
    const res = await t.api('POST', `/api/messages/${m.id}/resend`, { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ _id: m.id, status: 'queued', attempts: 0 });
    const sent = await settled(id, 'appointment_booked', 'sms', ['sent']);
    expect(sent.to).toBe(fixed);
    const again = await t.api('POST', `/api/messages/${m.id}/resend`, { token: admin.token });
    expect(again.status).toBe(409);
  });
});

describe('the opt-out link', () => {
  async function linkFor() {
    const c = await clinic();
    const id = await bookAt(c, at(dayFromToday(14), '10:00'));
    const email = await settled(id, 'appointment_booked', 'email', ['sent']);
    const url = /https:\/\/office\.example\.com(\/api\/messages\/opt-out\?token=\S+)/.exec(email.text)![1]!;
    return { path: url, userId: c.booking.customerId };
  }
  const optedOut = async (userId: string) =>
    (await t.deps.db.select({ o: users.optOutEmail }).from(users).where(eq(users.id, userId)))[0]!.o;

  it('GET without signing in opts the person out of e-mail and offers an undo', async () => {
    const { path, userId } = await linkFor();
    const res = await fetch(`${t.baseUrl}${path}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('You are unsubscribed');
    expect(html).toContain('Undo');
    expect(await optedOut(userId)).toBe(true);
    const undo = /action="([^"]+)"/.exec(html)![1]!.replaceAll('&#38;', '&');
    const back = await fetch(`${t.baseUrl}${undo}`, { method: 'POST' });
    expect(back.status).toBe(200);
    expect(await optedOut(userId)).toBe(false);
  });

  it('a person who reads Sinhala gets the link line and the page in Sinhala, and the undo page too', async () => {
    const c = await clinic();
    await t.deps.db.update(users).set({ language: 'si' }).where(eq(users.id, c.booking.customerId));
    const id = await bookAt(c, at(dayFromToday(15), '10:00'));
    // The reminder ships in Sinhala (the booking notice falls back to English, its line with it).
    const email = await settled(id, 'appointment_reminder', 'email', ['scheduled']);
    expect(email.language).toBe('si');
    expect(email.text).toContain('මෙම ඊමේල් නැවැත්වීමට: https://office.example.com/api/messages/opt-out?token=');
    expect(email.text).not.toContain('To stop these e-mails');
    const path = /https:\/\/office\.example\.com(\/api\/messages\/opt-out\?token=\S+)/.exec(email.text)![1]!;
    const html = await (await fetch(`${t.baseUrl}${path}`)).text();
    expect(html).toContain('<html lang="si">');
    expect(html).toContain('ඔබ දායකත්වයෙන් ඉවත් විය');
    expect(html).toContain('ඊමේල් නොලැබේ');
    const undo = /action="([^"]+)"/.exec(html)![1]!.replaceAll('&#38;', '&');
    const back = await (await fetch(`${t.baseUrl}${undo}`, { method: 'POST' })).text();
    expect(back).toContain('ඔබ නැවත දායක විය');
    expect(await optedOut(c.booking.customerId)).toBe(false);
  });

  it('the one-click POST of RFC 8058 does the same', async () => {
    const { path, userId } = await linkFor();
    const res = await fetch(`${t.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(res.status).toBe(200);
    expect(await optedOut(userId)).toBe(true);
  });

  it('a forged link (another person, or a made-up signature) is refused and changes nothing', async () => {
    const { path } = await linkFor();
    const victim = await makeUser(t.deps.db, { role: 'customer' });
    const token = decodeURIComponent(path.split('token=')[1]!);
    const [, channel, signature] = token.split('.');
    for (const forged of [`${victim.id}.${channel}.${signature}`, `${victim.id}.email.${'A'.repeat(43)}`, 'nonsense']) {
      const res = await fetch(`${t.baseUrl}/api/messages/opt-out?token=${encodeURIComponent(forged)}`);
      expect(res.status).toBe(400);
      expect(await res.text()).toContain('This opt-out link is not valid.');
    }
    expect(await optedOut(victim.id)).toBe(false);
  });
});

describe('the delivery log, settings and contact preferences', () => {
  it('admins list with filters and a keyset cursor; managers may not', async () => {
    const c = await clinic();
    const id = await bookAt(c, at(dayFromToday(15), '10:00'));
    await settled(id, 'appointment_booked', 'sms', ['sent']);
    const all = await t.api('GET', `/api/messages?entityId=${id}`, { token: admin.token });
    expect(all.status).toBe(200);
    expect(all.body.data).toHaveLength(4);
    expect(all.body.data[0]).toMatchObject({
      entityType: 'appointment',
      entityId: id,
      recipient: { _id: c.booking.customerId },
    });
    const sms = await t.api('GET', `/api/messages?entityId=${id}&channel=sms&status=sent`, { token: admin.token });
    expect(sms.body.data).toMatchObject([{ event: 'appointment_booked', channel: 'sms', status: 'sent' }]);
    const first = await t.api('GET', `/api/messages?recipientId=${c.booking.customerId}&limit=3`, {
      token: admin.token,
    });
    expect(first.body.data).toHaveLength(3);
    expect(first.body.nextCursor).toBeTruthy();
    const next = await t.api(
      'GET',
      `/api/messages?recipientId=${c.booking.customerId}&limit=3&cursor=${encodeURIComponent(first.body.nextCursor)}`,
      {
        token: admin.token,
      },
    );
    expect(next.body.data).toHaveLength(1);
    expect(next.body.nextCursor).toBeNull();
    const ids = [...first.body.data, ...next.body.data].map((m: { _id: string }) => m._id);
    expect(new Set(ids).size).toBe(4);
    const future = await t.api('GET', `/api/messages?entityId=${id}&from=2099-01-01T00:00:00Z`, { token: admin.token });
    expect(future.body.data).toEqual([]);
    expect((await t.api('GET', '/api/messages?status=lost', { token: admin.token })).status).toBe(400);
    expect((await t.api('GET', '/api/messages', { token: manager.token })).status).toBe(403);
    expect((await t.api('GET', '/api/messages')).status).toBe(401);
  });

  it('staff read the settings, admins write them, bad values are refused with a message', async () => {
    const got = await t.api('GET', '/api/message-settings', { token: manager.token });
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ reminderHours: [24], dueSoonDays: 3 });
    expect(got.body.events.payment_received).toEqual({ email: false, sms: false });
    expect((await t.api('PUT', '/api/message-settings', { token: manager.token, body: got.body })).status).toBe(403);
    const bad = await t.api('PUT', '/api/message-settings', {
      token: admin.token,
      body: { ...got.body, quietHours: { start: '25:00', end: '08:00' } },
    });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('Quiet hours start must be a time such as 20:00.');
    const two = await putSettings({ ...got.body, reminderHours: [24, 2] });
    expect(two.reminderHours).toEqual([24, 2]);
    const c = await clinic();
    const id = await bookAt(c, at(dayFromToday(16), '10:00'));
    expect(await rowOf(id, 'appointment_reminder', 'sms')).toHaveLength(2);
  });

  it('contact preferences: staff for anyone, a person for themselves only', async () => {
    const student = await t.userWithSession('student');
    const other = await makeUser(t.deps.db, { role: 'student' });
    const body = { language: 'si', optOut: { email: true, sms: false } };
    const own = await t.api('PUT', `/api/users/${student.id}/contact-preferences`, { token: student.token, body });
    expect(own.status).toBe(200);
    expect(own.body).toEqual(body);
    expect(
      (await t.api('PUT', `/api/users/${other.id}/contact-preferences`, { token: student.token, body })).status,
    ).toBe(403);
    const byStaff = await t.api('PUT', `/api/users/${other.id}/contact-preferences`, { token: manager.token, body });
    expect(byStaff.status).toBe(200);
    const [row] = await t.deps.db.select().from(users).where(eq(users.id, other.id));
    expect(row).toMatchObject({ language: 'si', optOutEmail: true, optOutSms: false });
    const bad = await t.api('PUT', `/api/users/${other.id}/contact-preferences`, {
      token: manager.token,
      body: { language: 'fr', optOut: { email: true, sms: false } },
    });
    expect(bad.status).toBe(400);
  });
});

describe('the audit trail', () => {
  const entriesFor = (entityType: string, entityId: string) =>
    t.deps.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, entityType), eq(auditLog.entityId, entityId)))
      .orderBy(auditLog.createdAt);

  it('a settings change is one entry by the admin naming what changed; an unchanged save writes none', async () => {
    const before = (await entriesFor('settings', 'messages')).length;
    await putSettings({ ...defaultMessageSettings(), quietHours: null, dueSoonDays: 5 });
    await putSettings({ ...defaultMessageSettings(), quietHours: null, dueSoonDays: 5 });
    const entries = await entriesFor('settings', 'messages');
    expect(entries).toHaveLength(before + 1);
    const last = entries.at(-1)!;
    expect(last).toMatchObject({ action: 'update', actorId: admin.id, summary: 'Changed the message settings' });
    expect(last.changes).toEqual([{ field: 'dueSoonDays', before: 3, after: 5 }]);
  });

  it('a template written and then changed is a create and an update with the old and new text', async () => {
    const key = 'class_moved/sms/ta';
    const put = (body: string) =>
      t.api('PUT', '/api/message-templates', {
        token: admin.token,
        body: [{ event: 'class_moved', channel: 'sms', language: 'ta', body }],
      });
    expect((await put('First {name}')).status).toBe(200);
    expect((await put('Second {name}')).status).toBe(200);
    const entries = await entriesFor('message_template', key);
    expect(entries.map((e) => e.action)).toEqual(['create', 'update']);
    expect(entries[1]!.actorId).toBe(admin.id);
    expect(entries[1]!.changes).toEqual([{ field: 'body', before: 'First {name}', after: 'Second {name}' }]);
  });

  it("a person's contact preferences, by staff or by the opt-out link, are recorded on the person", async () => {
    const person = await makeUser(t.deps.db, { role: 'student' });
    const body = { language: 'si', optOut: { email: false, sms: true } };
    expect(
      (await t.api('PUT', `/api/users/${person.id}/contact-preferences`, { token: manager.token, body })).status,
    ).toBe(200);
    const token = await optOutToken(t.deps, person.id, 'email');
    const res = await fetch(`${t.baseUrl}/api/messages/opt-out?token=${encodeURIComponent(token)}`);
    expect(res.status).toBe(200);
    const entries = await entriesFor('user', person.id);
    const prefs = entries.filter((e) => e.action === 'update');
    expect(prefs).toHaveLength(2);
    expect(prefs[0]).toMatchObject({ actorId: manager.id });
    expect(prefs[0]!.changes).toEqual(
      expect.arrayContaining([
        { field: 'language', before: 'en', after: 'si' },
        { field: 'optOutSms', before: false, after: true },
      ]),
    );
    expect(prefs[1]).toMatchObject({ actorId: null });
    expect(prefs[1]!.summary).toContain('opted out of e-mail by the link');
    expect(prefs[1]!.changes).toEqual([{ field: 'optOutEmail', before: false, after: true }]);
  });
});
