import { describe, expect, it } from 'vitest';
import { ZMe, ZSignedIn } from './auth.output';
import { ZUser, ZUserList, ZUserPage } from './users.output';

const user = {
  _id: '3f1c1a52-8d0e-4e0b-9a59-0c1f2b3c4d5e',
  username: 'ada',
  fullName: 'Ada Lovelace',
  email: 'ada@example.com',
  role: 'admin',
  branch: { _id: '6a7b8c9d-0e1f-4a2b-8c3d-4e5f6a7b8c9d', name: 'Colombo', location: 'Colombo 03' },
  phone: null,
  address: null,
  nic: null,
  dateOfBirth: null,
  gender: null,
  emergencyContact: null,
  image: null,
  createdAt: '2025-01-31T10:00:00.000Z',
  updatedAt: '2025-01-31T10:00:00.000Z',
} as const;
/** What a careless query could hand the contract: the row's secret columns as well. */
const leaky = { ...user, passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA', password: 'long-enough-pw' };

describe('user output contracts', () => {
  it('drop a password or its hash, whatever the service handed them', () => {
    const answers = [
      ZUser.parse(leaky),
      ZMe.parse(leaky),
      ZSignedIn.parse({ ...leaky, token: 'abc' }),
      ZUserList.parse([leaky]),
      ZUserPage.parse({ items: [leaky], total: 1, page: 1, pageSize: 25 }),
    ];
    expect(answers[0]).toEqual(user);
    expect(answers[2]).toEqual({ ...user, token: 'abc' });
    const text = JSON.stringify(answers);
    expect(text).not.toMatch(/password/i);
    expect(text).not.toContain('$argon2');
  });

  it('refuse an answer that is not a user', () => {
    expect(ZUser.safeParse({ ...user, role: 'root' }).success).toBe(false);
    expect(ZUser.safeParse({ ...user, createdAt: 'yesterday' }).success).toBe(false);
  });
});
