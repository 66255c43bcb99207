import { describe, expect, it } from 'vitest';
import {
  BOUNDS,
  CREATE_REQUIRED,
  NUMERIC,
  UPDATE_REQUIRED,
  ZCreateTreatmentInput,
  ZUpdateTreatmentBody,
} from './treatments';

const filled = {
  treatmentName: '  Cupping ',
  localPrice: '1500.50',
  foreignPrice: '5',
  maxSessions: '4',
  installments: '2',
};

/** The first message, as the form shows it and the server answers it. */
const firstMessage = (schema: typeof ZCreateTreatmentInput, input: unknown) => {
  const read = schema.safeParse(input);
  return read.success ? null : read.error.issues[0]?.message;
};

describe('the treatment input schema', () => {
  it('checks required, then numbers, then bounds, with the screen messages', () => {
    expect(firstMessage(ZCreateTreatmentInput, { ...filled, treatmentName: ' ', localPrice: 'x' })).toBe(
      CREATE_REQUIRED,
    );
    expect(firstMessage(ZUpdateTreatmentBody, { ...filled, installments: '' })).toBe(UPDATE_REQUIRED);
    expect(firstMessage(ZCreateTreatmentInput, { ...filled, foreignPrice: 'abc', maxSessions: '0' })).toBe(NUMERIC);
    expect(firstMessage(ZCreateTreatmentInput, { ...filled, maxSessions: '0' })).toBe(BOUNDS);
    expect(firstMessage(ZCreateTreatmentInput, { ...filled, localPrice: '-1' })).toBe(BOUNDS);
  });

  it('names the messages as the screens show them', () => {
    expect(CREATE_REQUIRED).toBe('Please fill all the required fields.');
    expect(UPDATE_REQUIRED).toBe('Please fill all required fields');
    expect(NUMERIC).toBe('All numeric fields must contain valid numbers');
    expect(BOUNDS).toBe('Prices must be positive and sessions/installments must be greater than zero');
  });

  it('files a missing field under that field and a bound under none', () => {
    const missing = ZCreateTreatmentInput.safeParse({ ...filled, foreignPrice: '' });
    expect(missing.error?.issues.map((i) => i.path)).toEqual([['foreignPrice']]);
    const bound = ZCreateTreatmentInput.safeParse({ ...filled, installments: '0' });
    expect(bound.error?.issues.map((i) => i.path)).toEqual([[]]);
  });

  it('trims the name, reads numeric text and defaults blank duration parts to 0', () => {
    expect(ZUpdateTreatmentBody.parse({ ...filled, duration: { weeks: '2', days: '', months: null } })).toEqual({
      treatmentName: 'Cupping',
      localPrice: 1500.5,
      foreignPrice: 5,
      maxSessions: 4,
      installments: 2,
      duration: { weeks: 2, days: 0, months: 0 },
    });
  });
});
