import { describe, expect, it } from 'vitest';
import {
  BOUNDS,
  EMPTY_FORM,
  formatDuration,
  NUMERIC,
  readTreatmentForm,
  REQUIRED_CREATE,
  REQUIRED_EDIT,
} from './treatment-form';

const filled = {
  ...EMPTY_FORM,
  treatmentName: '  Cupping ',
  localPrice: '1500.50',
  foreignPrice: '5',
  maxSessions: '4',
  installments: '2',
};

describe('the treatment form', () => {
  it('checks required, then numbers, then bounds, with the screen messages', () => {
    expect(readTreatmentForm({ ...filled, treatmentName: ' ', localPrice: 'x' }, REQUIRED_CREATE)).toEqual({
      error: REQUIRED_CREATE,
    });
    expect(readTreatmentForm({ ...filled, installments: '' }, REQUIRED_EDIT)).toEqual({ error: REQUIRED_EDIT });
    expect(readTreatmentForm({ ...filled, foreignPrice: 'abc', maxSessions: '0' }, REQUIRED_CREATE)).toEqual({
      error: NUMERIC,
    });
    expect(readTreatmentForm({ ...filled, maxSessions: '0' }, REQUIRED_CREATE)).toEqual({ error: BOUNDS });
    expect(readTreatmentForm({ ...filled, localPrice: '-1' }, REQUIRED_CREATE)).toEqual({ error: BOUNDS });
  });

  it('trims the name and turns blank or invalid duration parts into 0', () => {
    expect(readTreatmentForm({ ...filled, weeks: '2', days: 'abc', months: '' }, REQUIRED_EDIT)).toEqual({
      values: {
        treatmentName: 'Cupping',
        localPrice: 1500.5,
        foreignPrice: 5,
        maxSessions: 4,
        installments: 2,
        duration: { weeks: 2, days: 0, months: 0 },
      },
    });
  });

  it('shows the duration as W, D and M parts', () => {
    expect(formatDuration({ weeks: 2, days: 3, months: 1 })).toBe('2W 3D 1M');
    expect(formatDuration({ weeks: 0, days: 10, months: 0 })).toBe('10D');
    expect(formatDuration({ weeks: 0, days: 0, months: 0 })).toBe('—');
  });
});
