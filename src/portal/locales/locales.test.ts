import { describe, expect, test } from 'vitest';
import { REFUSAL_CODES } from '../../shared/refusals';
import en from './en.json';
import si from './si.json';
import ta from './ta.json';

/** Every key of a catalogue as a dotted path ('home.nextDue'), plural forms included. */
function keysOf(value: unknown, prefix = ''): string[] {
  if (value === null || typeof value !== 'object') return [prefix];
  return Object.entries(value).flatMap(([k, v]) => keysOf(v, prefix ? `${prefix}.${k}` : k));
}

function valueAt(catalogue: unknown, key: string): unknown {
  return key.split('.').reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], catalogue);
}

/** The {{placeholders}} a text fills in. */
function placeholders(text: string): string[] {
  return [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]!).sort();
}

const english = keysOf(en).sort();

describe.each([
  ['si', si],
  ['ta', ta],
])('the %s catalogue', (_lang, catalogue) => {
  test('has exactly the English keys: none missing, none extra', () => {
    const keys = keysOf(catalogue).sort();
    expect(
      english.filter((k) => !keys.includes(k)),
      'missing',
    ).toEqual([]);
    expect(
      keys.filter((k) => !english.includes(k)),
      'extra',
    ).toEqual([]);
  });

  test('fills in the same placeholders as English, in every text', () => {
    for (const key of english) {
      const text = valueAt(catalogue, key);
      expect(typeof text, key).toBe('string');
      expect(placeholders(text as string), key).toEqual(placeholders(valueAt(en, key) as string));
    }
  });

  test('has no empty text and no English left untranslated', () => {
    // Texts that are the same in every language: a dash, or a name that is not translated.
    const same = new Set(['profile.none']);
    for (const key of english) {
      const text = valueAt(catalogue, key) as string;
      expect(text.trim(), key).not.toBe('');
      if (!same.has(key)) expect(text, key).not.toBe(valueAt(en, key));
    }
  });
});

test('English has no empty text', () => {
  for (const key of english) expect((valueAt(en, key) as string).trim(), key).not.toBe('');
});

test('every refusal the server names has its text (the languages then follow from the tests above)', () => {
  for (const code of REFUSAL_CODES) expect(valueAt(en, `refusal.${code}`), code).toBeDefined();
  // A refusal naming the number to call has a text for when no number is set.
  for (const code of ['cancel_too_late', 'self_booking_off'])
    expect(typeof valueAt(en, `refusal.${code}_no_phone`), code).toBe('string');
  // The fields of the portal's own forms whose refusals are translated.
  for (const field of ['phone', 'address', 'email', 'code', 'password', 'reason'])
    expect(typeof valueAt(en, `refusal.invalid_input.${field}`), field).toBe('string');
  // No text for a code the server does not send.
  const known = new Set<string>([...REFUSAL_CODES, 'cancel_too_late_no_phone', 'self_booking_off_no_phone']);
  expect(Object.keys(en.refusal).filter((k) => !known.has(k))).toEqual([]);
});
