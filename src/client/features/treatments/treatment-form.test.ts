import { describe, expect, it } from 'vitest';
import { BOUNDS, NUMERIC, ZUpdateTreatmentBody } from '@shared/schemas/treatments';
import { formatDuration, readTreatmentForm, REQUIRED_EDIT, type TreatmentForm } from './treatment-form';

const filled: TreatmentForm = {
  treatmentName: '  Cupping ',
  localPrice: '1500.50',
  foreignPrice: '5',
  maxSessions: '4',
  installments: '2',
  weeks: '',
  days: '',
  months: '',
};

describe('the inline treatment edit', () => {
  it("answers the shared schema's first message", () => {
    expect(readTreatmentForm({ ...filled, installments: '' }, REQUIRED_EDIT)).toEqual({ error: REQUIRED_EDIT });
    expect(readTreatmentForm({ ...filled, foreignPrice: 'abc' }, REQUIRED_EDIT)).toEqual({ error: NUMERIC });
    expect(readTreatmentForm({ ...filled, maxSessions: '0' }, REQUIRED_EDIT)).toEqual({ error: BOUNDS });
  });

  it('turns blank or invalid duration parts into 0, then reads the row as the schema does', () => {
    const row = { ...filled, weeks: '2', days: 'abc', months: '-3' };
    expect(readTreatmentForm(row, REQUIRED_EDIT)).toEqual({
      values: ZUpdateTreatmentBody.parse({ ...filled, duration: { weeks: 2, days: 0, months: 0 } }),
    });
  });

  it('shows the duration as W, D and M parts', () => {
    expect(formatDuration({ weeks: 2, days: 3, months: 1 })).toBe('2W 3D 1M');
    expect(formatDuration({ weeks: 0, days: 10, months: 0 })).toBe('10D');
    expect(formatDuration({ weeks: 0, days: 0, months: 0 })).toBe('—');
  });
});
