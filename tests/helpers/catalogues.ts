import { describe, expect, test } from 'vitest';

/** Every key of a catalogue as a dotted path ('home.nextDue'), plural forms included. */
function keysOf(value: unknown, prefix = ''): string[] {
  if (value === null || typeof value !== 'object') return [prefix];
  return Object.entries(value).flatMap(([k, v]) => keysOf(v, prefix ? `${prefix}.${k}` : k));
}

export function valueAt(catalogue: unknown, key: string): unknown {
  return key.split('.').reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], catalogue);
}

/** The {{placeholders}} a text fills in. */
function placeholders(text: string): string[] {
  return [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]!).sort();
}

/**
 * The checks every set of catalogues passes: Sinhala and Tamil have exactly the English keys, fill
 * in the same placeholders, and leave no text empty or in English (but for the keys in `same`,
 * texts alike in every language).
 */
export function checkCatalogues(name: string, en: unknown, others: { si: unknown; ta: unknown }, same: string[] = []) {
  const english = keysOf(en).sort();
  describe.each(Object.entries(others))(`the %s ${name} catalogue`, (_lang, catalogue) => {
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
      for (const key of english) {
        const text = valueAt(catalogue, key) as string;
        expect(text.trim(), key).not.toBe('');
        if (!same.includes(key)) expect(text, key).not.toBe(valueAt(en, key));
      }
    });
  });

  test(`English ${name} catalogue has no empty text`, () => {
    for (const key of english) expect((valueAt(en, key) as string).trim(), key).not.toBe('');
  });
}
