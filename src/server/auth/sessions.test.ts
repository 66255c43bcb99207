import { describe, expect, it } from 'vitest';
import { generateSessionToken, sessionIdFromToken } from './sessions';

describe('session ids', () => {
  it('are the SHA-256 of the token in lower-case hex, as stored by every earlier release', () => {
    // The FIPS 180-2 test vector: a session stored before the hash changed library still matches.
    expect(sessionIdFromToken('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('differ for different tokens and never contain the token', () => {
    const a = generateSessionToken();
    const b = generateSessionToken();
    expect(a).toMatch(/^[a-z2-7]{32}$/);
    expect(sessionIdFromToken(a)).not.toBe(sessionIdFromToken(b));
    expect(sessionIdFromToken(a)).not.toContain(a);
  });
});
