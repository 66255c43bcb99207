import { describe, expect, it } from 'vitest';
import { SEARCH_KINDS, type SearchKind, type TSearchHit } from '@shared/schemas/search';
import { capTotal } from './search.service';

const hitsOf = (kind: SearchKind, n: number): TSearchHit[] =>
  Array.from({ length: n }, (_, i) => ({ kind, id: `${kind}-${i}`, title: '', subtitle: '', url: '' }));

describe('capTotal', () => {
  it('keeps every hit while there are 20 or fewer, in the kinds order', () => {
    const byKind = new Map<SearchKind, TSearchHit[]>([
      ['course', hitsOf('course', 2)],
      ['user', hitsOf('user', 5)],
    ]);
    expect(capTotal(byKind).map((h) => h.id)).toEqual([
      ...hitsOf('user', 5).map((h) => h.id),
      ...hitsOf('course', 2).map((h) => h.id),
    ]);
  });

  it('cuts 30 hits to 20, taking from the kinds with the most, so each keeps its first ones', () => {
    const byKind = new Map(SEARCH_KINDS.map((k) => [k, hitsOf(k, 5)] as const));
    byKind.set('treatment', hitsOf('treatment', 1));
    const capped = capTotal(byKind);
    expect(capped).toHaveLength(20);
    const per = Object.fromEntries(SEARCH_KINDS.map((k) => [k, capped.filter((h) => h.kind === k).length]));
    expect(per.treatment).toBe(1);
    for (const k of SEARCH_KINDS.filter((x) => x !== 'treatment')) expect([3, 4]).toContain(per[k]);
    expect(capped.filter((h) => h.kind === 'user').map((h) => h.id)[0]).toBe('user-0');
  });
});
