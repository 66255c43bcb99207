import { describe, expect, it } from 'vitest';
import { ZUpdateBranchInput } from '@shared/schemas/branches';
import { ZUpdateCourseInput } from '@shared/schemas/courses';
import { ZUpdateUserInput } from '@shared/schemas/users';
import { readWith } from './read-draft';

const id = '3f1c2a4e-1b2c-4d5e-8f90-123456789abc';

describe('an inline edit read by its update schema', () => {
  it('gives a branch row the input to send, trimmed, or the schema’s message', () => {
    const read = readWith(ZUpdateBranchInput);
    expect(read({ id, name: ' Kandy ', location: 'Hill St' })).toEqual({ id, name: 'Kandy', location: 'Hill St' });
    expect(read({ id, name: '  ', location: 'Hill St' })).toBe('Please fill all the required fields.');
    expect(read({ id, name: 'Kandy', location: '' })).toBe('Please fill all the required fields.');
  });

  it('refuses a course row with a blank or wrong fee, and sends the fees as numbers', () => {
    const read = readWith(ZUpdateCourseInput);
    const row = {
      id,
      courseName: 'Yoga',
      duration: '2 months',
      category: 'Health',
      totalFee: '1,500',
      admissionFee: '100',
      installments: '2',
    };
    expect(read(row)).toEqual({ ...row, totalFee: 1500, admissionFee: 100, installments: 2 });
    expect(read({ ...row, totalFee: ' ' })).toBe('Please fill all the required fields.');
    expect(read({ ...row, category: '' })).toBe('Please fill all the required fields.');
    expect(read({ ...row, admissionFee: 'abc' })).toBe('Fees and installments must be valid numbers.');
    expect(read({ ...row, installments: '0' })).toBe('Installments must be a whole number of at least 1.');
  });

  it('reads a user row as the server does: no branch is null, a blank name is named', () => {
    const read = readWith(ZUpdateUserInput);
    const row = { id, username: ' nimal ', fullName: 'Nimal Perera', role: 'student', branchId: '' };
    expect(read(row)).toEqual({ ...row, username: 'nimal', branchId: null });
    expect(read({ ...row, username: ' ' })).toBe('Username is required.');
    expect(read({ ...row, fullName: '' })).toBe('Full name is required.');
  });
});
