import { describe, expect, it } from 'vitest';
import { cursorOf, cursorsAfterMove } from './page-cursors';

const state = (pageCursors?: Record<string, string>) => ({ __TSR_index: 0, pageCursors });

describe('the cursors a list carries from page to page', () => {
  it('records the shown page’s cursor for the page Next goes to, and keeps the others', () => {
    const after1 = cursorsAfterMove(undefined, 1, 'c1', 2);
    expect(after1).toEqual({ 2: 'c1' });
    const after2 = cursorsAfterMove(after1, 2, 'c2', 3);
    expect(after2).toEqual({ 2: 'c1', 3: 'c2' });
    // Previous and a jump record nothing; Next again replaces the page's cursor with the fresh one.
    expect(cursorsAfterMove(after2, 3, 'c3', 2)).toEqual(after2);
    expect(cursorsAfterMove(after2, 3, 'c3', 7)).toEqual(after2);
    expect(cursorsAfterMove(after2, 1, 'c1b', 2)).toEqual({ 2: 'c1b', 3: 'c2' });
  });

  it('records nothing for the last page (no cursor) and forgets pages far from the one shown', () => {
    expect(cursorsAfterMove({ 2: 'c1' }, 2, null, 3)).toEqual({ 2: 'c1' });
    expect(cursorsAfterMove({ 2: 'c1', 80: 'c79' }, 80, 'c80', 81)).toEqual({ 80: 'c79', 81: 'c80' });
  });

  it('reads the cursor of the page the URL names, and none where the state has none', () => {
    expect(cursorOf(state({ 2: 'c1', 3: 'c2' }), 3)).toBe('c2');
    expect(cursorOf(state({ 2: 'c1' }), 3)).toBeUndefined();
    expect(cursorOf(state(), 1)).toBeUndefined();
  });
});
