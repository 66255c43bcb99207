import { describe, expect, it } from 'vitest';
import { hasAtMostTwoDecimals, splitMinor, toForeign, toMinor } from './money';

describe('money', () => {
  it('splits a total that does not divide evenly with the remainder on the last part', () => {
    expect(splitMinor(10000, 3)).toEqual([3333, 3333, 3334]);
    expect(splitMinor(10000, 3).reduce((a, b) => a + b, 0)).toBe(10000);
    expect(splitMinor(1, 4)).toEqual([0, 0, 0, 1]);
    expect(splitMinor(5000, 1)).toEqual([5000]);
  });

  it('converts decimal amounts to whole cents without float drift', () => {
    expect(toMinor(0.1 + 0.2)).toBe(30);
    expect(toMinor(1234.56)).toBe(123456);
    expect(toMinor(19.99)).toBe(1999);
  });

  it('accepts two decimals and rejects three', () => {
    expect(hasAtMostTwoDecimals(10.25)).toBe(true);
    expect(hasAtMostTwoDecimals(10.255)).toBe(false);
  });

  it('converts a local amount to the foreign currency at the exchange rate', () => {
    expect(toForeign(32075, 320.75)).toBe(100);
  });
});
