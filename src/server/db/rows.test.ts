import { describe, expect, it } from 'vitest';
import { firstRow, groupRows } from './rows';

describe('firstRow', () => {
  it('answers the first row and refuses an empty answer', () => {
    expect(firstRow([{ id: 'a' }, { id: 'b' }])).toEqual({ id: 'a' });
    expect(() => firstRow([])).toThrow('The statement answered no row.');
  });
});

describe('groupRows', () => {
  it('groups rows by key, each group in the order the rows came', () => {
    const rows = [
      { owner: 'x', seq: 2 },
      { owner: 'y', seq: 1 },
      { owner: 'x', seq: 0 },
      { owner: 'x', seq: 5 },
    ];
    const groups = groupRows(rows, (r) => r.owner);
    expect([...groups.keys()]).toEqual(['x', 'y']);
    expect(groups.get('x')?.map((r) => r.seq)).toEqual([2, 0, 5]);
    expect(groups.get('y')).toEqual([{ owner: 'y', seq: 1 }]);
    expect(groups.get('z')).toBeUndefined();
  });

  it('answers no group for no rows', () => {
    expect(groupRows([], () => 'k').size).toBe(0);
  });
});
