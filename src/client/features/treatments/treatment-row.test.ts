import { describe, expect, it } from 'vitest';
import { BOUNDS, NUMERIC, UPDATE_REQUIRED, ZUpdateTreatmentInput } from '@shared/schemas/treatments';
import { formatDuration, readDraft, type toDraft } from './treatment-row';

const filled: ReturnType<typeof toDraft> = {
  id: '00000000-0000-4000-8000-000000000001',
  treatmentName: '  Cupping ',
  localPrice: '1500.50',
  foreignPrice: '5',
  maxSessions: '4',
  installments: '2',
  weeks: '',
  days: '',
  months: '',
  sessionMinutes: '45',
  bufferMinutes: '10',
  requiresRoom: true,
};

describe('the inline treatment edit', () => {
  it("answers the shared schema's first message", () => {
    expect(readDraft({ ...filled, installments: '' })).toBe(UPDATE_REQUIRED);
    expect(readDraft({ ...filled, foreignPrice: 'abc' })).toBe(NUMERIC);
    expect(readDraft({ ...filled, maxSessions: '0' })).toBe(BOUNDS);
  });

  it('turns blank or invalid duration parts into 0, then reads the row as the schema does', () => {
    const { weeks: _w, days: _d, months: _m, sessionMinutes: _s, bufferMinutes: _b, ...fields } = filled;
    expect(readDraft({ ...filled, weeks: '2', days: 'abc', months: '-3' })).toEqual(
      ZUpdateTreatmentInput.parse({
        ...fields,
        duration: { weeks: 2, days: 0, months: 0 },
        sessionMinutes: 45,
        bufferMinutes: 10,
      }),
    );
  });

  it('sends the timing as numbers and refuses a blank or out-of-range session length with its message', () => {
    expect(readDraft(filled)).toMatchObject({ sessionMinutes: 45, bufferMinutes: 10, requiresRoom: true });
    expect(readDraft({ ...filled, sessionMinutes: '' })).toBe(
      ZUpdateTreatmentInput.safeParse({ sessionMinutes: Number.NaN }).error?.issues[0]?.message,
    );
    expect(typeof readDraft({ ...filled, bufferMinutes: '500' })).toBe('string');
  });

  it('shows the duration as W, D and M parts', () => {
    expect(formatDuration({ weeks: 2, days: 3, months: 1 })).toBe('2W 3D 1M');
    expect(formatDuration({ weeks: 0, days: 10, months: 0 })).toBe('10D');
    expect(formatDuration({ weeks: 0, days: 0, months: 0 })).toBe('—');
  });
});
