import { describe, expect, it } from 'vitest';
import { MESSAGE_CHANNELS, MESSAGE_EVENTS, MESSAGE_PLACEHOLDERS } from '@shared/schemas/messages';
import { smsSegments } from '@shared/sms';
import { defaultTemplates } from './default-templates';

const find = (event: string, channel: string, language: string) =>
  defaultTemplates.filter((t) => t.event === event && t.channel === channel && t.language === language);

const placeholdersIn = (text: string) => [...text.matchAll(/\{([^{}]*)\}/g)].map((m) => m[1] ?? '');

/** Values as long as real ones get: a long name and course, a full date and time, a big amount. */
const SAMPLE: Record<string, string> = {
  name: 'Ishara Wickramasinghe',
  date: 'Wed 3 Dec 2026',
  time: '10:30 AM',
  oldDate: 'Tue 2 Dec 2026',
  oldTime: '09:15 AM',
  branch: 'Colombo Main',
  treatment: 'Speech therapy',
  course: 'Certificate in Testing',
  amount: 'LKR 10,000.00',
  dueDate: 'Fri 5 Dec 2026',
  receiptNumber: 'R-2026-000123',
  organisation: 'Institute & Clinic Back Office',
};
const fill = (text: string) => text.replace(/\{(\w+)\}/g, (_, key: string) => SAMPLE[key] ?? '');

describe('the templates a new installation starts with', () => {
  it('has exactly one English template for every event and channel', () => {
    for (const event of MESSAGE_EVENTS)
      for (const channel of MESSAGE_CHANNELS) expect(find(event, channel, 'en'), `${event}/${channel}`).toHaveLength(1);
  });

  it('has Sinhala and Tamil for the appointment and due-date reminders on both channels', () => {
    for (const event of ['appointment_reminder', 'installment_due_soon'])
      for (const channel of MESSAGE_CHANNELS)
        for (const language of ['si', 'ta']) {
          const [t] = find(event, channel, language);
          expect(t, `${event}/${channel}/${language}`).toBeDefined();
          // Written in that script, not English left in place.
          const script = language === 'si' ? /[\u0D80-\u0DFF]/ : /[\u0B80-\u0BFF]/;
          expect(t!.body).toMatch(script);
        }
  });

  it('never holds two templates for one event, channel and language', () => {
    const keys = defaultTemplates.map((t) => `${t.event}/${t.channel}/${t.language}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('uses only known placeholders, in subjects and bodies alike', () => {
    const known = new Set<string>(MESSAGE_PLACEHOLDERS);
    for (const t of defaultTemplates)
      for (const p of placeholdersIn(`${t.subject ?? ''} ${t.body}`))
        expect(known.has(p), `{${p}} in ${t.event}/${t.channel}/${t.language}`).toBe(true);
  });

  it('gives every e-mail a subject and no SMS one', () => {
    for (const t of defaultTemplates) {
      if (t.channel === 'email') expect(t.subject?.trim(), `${t.event}/${t.language}`).toBeTruthy();
      else expect(t.subject, `${t.event}/${t.language}`).toBeUndefined();
    }
  });

  it('writes English SMS in GSM-7 that fits one 160-character segment even with long values', () => {
    for (const t of defaultTemplates.filter((x) => x.channel === 'sms' && x.language === 'en')) {
      expect(smsSegments(fill(t.body)), t.event).toMatchObject({ encoding: 'GSM-7', segments: 1 });
    }
  });

  it('names who sends it: every SMS starts with the organisation, every e-mail ends with it', () => {
    for (const t of defaultTemplates) {
      if (t.channel === 'sms') expect(t.body.startsWith('{organisation}:'), t.event).toBe(true);
      else expect(t.body.trimEnd().endsWith('{organisation}'), `${t.event}/${t.language}`).toBe(true);
    }
  });
});
