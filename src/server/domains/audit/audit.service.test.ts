import { describe, expect, it } from 'vitest';
import { changedFieldNames, fieldChanges, isSecretField } from './audit.service';

describe('fieldChanges', () => {
  it('lists only the fields an update changed, before and after', () => {
    expect(
      fieldChanges(
        { id: 'a', username: 'amal', phone: null, role: 'student', updatedAt: new Date(1) },
        { id: 'a', username: 'amal', phone: '077', role: 'manager', updatedAt: new Date(2) },
      ),
    ).toEqual([
      { field: 'phone', before: null, after: '077' },
      { field: 'role', before: 'student', after: 'manager' },
    ]);
  });

  it('takes a field the new version does not carry as unchanged', () => {
    expect(fieldChanges({ name: 'A', location: 'X' }, { location: 'Y' })).toEqual([
      { field: 'location', before: 'X', after: 'Y' },
    ]);
  });

  it('records a create and a delete field by field, leaving out empty values', () => {
    expect(fieldChanges(null, { name: 'Kandy', note: null })).toEqual([
      { field: 'name', before: null, after: 'Kandy' },
    ]);
    expect(fieldChanges({ name: 'Kandy', note: null }, null)).toEqual([
      { field: 'name', before: 'Kandy', after: null },
    ]);
  });

  it('compares nested objects part by part and dates as ISO text', () => {
    expect(
      fieldChanges(
        { duration: { weeks: 2, days: 0 }, paidAt: null },
        { duration: { weeks: 2, days: 3 }, paidAt: new Date('2025-01-02T03:04:05Z') },
      ),
    ).toEqual([
      { field: 'duration.days', before: 0, after: 3 },
      { field: 'paidAt', before: null, after: '2025-01-02T03:04:05.000Z' },
    ]);
  });

  it('never records secrets, whatever the caller passes', () => {
    const before = { passwordHash: 'h1', otp_hash: 'x', sessionToken: 't', token: 'a', name: 'A' };
    const after = { passwordHash: 'h2', otp_hash: 'y', sessionToken: 'u', token: 'b', name: 'B' };
    expect(fieldChanges(before, after)).toEqual([{ field: 'name', before: 'A', after: 'B' }]);
    expect(fieldChanges(null, { profile: { password: 'p', city: 'Galle' } })).toEqual([
      { field: 'profile.city', before: null, after: 'Galle' },
    ]);
  });

  it('keeps only the asked fields, in the asked order', () => {
    expect(
      fieldChanges({ a: 1, b: 1, c: { x: 1 } }, { a: 2, b: 2, c: { x: 2 } }, { fields: ['c', 'a'] }).map(
        (c) => c.field,
      ),
    ).toEqual(['c.x', 'a']);
  });
});

describe('isSecretField', () => {
  it.each(['password', 'passwordHash', 'otp', 'otpHash', 'otp_hash', 'token', 'sessionToken', 'sessionId', 'apiKey'])(
    '%s is secret',
    (f) => expect(isSecretField(f)).toBe(true),
  );
  it.each(['sessionsCompleted', 'sessionNotes', 'username', 'footprint', 'imageFileId', 'hashtagCount'])(
    '%s is not',
    (f) => expect(isSecretField(f)).toBe(false),
  );
});

it('changedFieldNames joins the names as a person would', () => {
  const c = (field: string) => ({ field, before: null, after: 1 });
  expect(changedFieldNames([c('fullName')], { fullName: 'full name' })).toBe('full name');
  expect(changedFieldNames([c('fullName'), c('phone'), c('imageFileId')])).toBe('full name, phone and image file id');
});
