import { expect, test } from 'vitest';
import { checkCatalogues, valueAt } from '../../../tests/helpers/catalogues';
import { REFUSAL_CODES } from '../../shared/refusals';
import en from './en.json';
import si from './si.json';
import ta from './ta.json';

// Texts that are the same in every language: a dash, or a name that is not translated.
checkCatalogues('portal', en, { si, ta }, ['profile.none']);

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
