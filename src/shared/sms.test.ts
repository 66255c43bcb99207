import { describe, expect, it } from 'vitest';
import { smsSegments } from './sms';

describe('smsSegments', () => {
  it('counts plain Latin text as GSM-7, 160 in one message and 153 per part after that', () => {
    expect(smsSegments('')).toEqual({ characters: 0, segments: 0, encoding: 'GSM-7' });
    expect(smsSegments('Hello Nimal, see you at 10:30.')).toEqual({ characters: 30, segments: 1, encoding: 'GSM-7' });
    expect(smsSegments('a'.repeat(160))).toEqual({ characters: 160, segments: 1, encoding: 'GSM-7' });
    expect(smsSegments('a'.repeat(161))).toEqual({ characters: 161, segments: 2, encoding: 'GSM-7' });
    expect(smsSegments('a'.repeat(306))).toEqual({ characters: 306, segments: 2, encoding: 'GSM-7' });
    expect(smsSegments('a'.repeat(307))).toEqual({ characters: 307, segments: 3, encoding: 'GSM-7' });
  });

  it('counts an extension-table character as two places and keeps GSM-7', () => {
    expect(smsSegments('Pay €5 [now]')).toEqual({ characters: 15, segments: 1, encoding: 'GSM-7' });
    // 159 plain + one € = 161 places: two parts.
    expect(smsSegments('a'.repeat(159) + '€').segments).toBe(2);
  });

  it('counts Sinhala as UCS-2, 70 in one message and 67 per part after that', () => {
    const si = 'ඔබගේ හමුවීම හෙට'; // "your appointment tomorrow"
    expect(smsSegments(si)).toEqual({ characters: si.length, segments: 1, encoding: 'UCS-2' });
    expect(smsSegments('ම'.repeat(70))).toEqual({ characters: 70, segments: 1, encoding: 'UCS-2' });
    expect(smsSegments('ම'.repeat(71))).toEqual({ characters: 71, segments: 2, encoding: 'UCS-2' });
    expect(smsSegments('ම'.repeat(135))).toEqual({ characters: 135, segments: 3, encoding: 'UCS-2' });
  });

  it('turns a whole Latin text UCS-2 when one character is outside GSM-7', () => {
    expect(smsSegments('a'.repeat(100) + 'ම')).toEqual({ characters: 101, segments: 2, encoding: 'UCS-2' });
  });
});
