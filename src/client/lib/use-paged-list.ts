import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { ListData, ListQueryOptions, SearchSetter } from '@/lib/list-route';
import type { ListSearch, ListSort } from '@/lib/list-search';
import { cursorsAfterMove, usePageCursors } from '@/lib/page-cursors';

/**
 * A server-paged list driven by the URL search (`?page=2&q=kandy&...`): `options` makes the query
 * of the page the URL names from that page's keyset cursor, if Next led to it (page-cursors.ts).
 * The query keeps the previous page on screen while the next one loads, and the setters write the
 * search back.
 */
export function usePagedList<TSearch extends ListSearch, TData extends ListData>(
  options: (cursor: string | undefined) => ListQueryOptions<TData>,
  search: TSearch,
  onSearchChange: SearchSetter<TSearch>,
) {
  const page = search.page ?? 1;
  const cursors = usePageCursors();
  const list = useQuery({ ...options(cursors?.[page]), placeholderData: keepPreviousData });

  const setPage = (to: number) => {
    // The answer on screen is this page's unless it is the previous page's, kept while loading.
    const nextCursor = list.isPlaceholderData ? undefined : list.data?.nextCursor;
    onSearchChange({ ...search, page: to > 1 ? to : undefined }, cursorsAfterMove(cursors, page, nextCursor, to));
  };

  // Deleting the last row of the last page leaves an empty page: step back.
  const items = list.data?.items;
  const empty = items?.length === 0 && page > 1 && !list.isPlaceholderData;
  useEffect(() => {
    if (empty) onSearchChange({ ...search, page: page - 1 }, cursors);
  }, [empty, page, onSearchChange, search, cursors]);

  /** A new search text or filter starts again at page 1. */
  const setFilter = (patch: Partial<TSearch>) => onSearchChange({ ...search, ...patch, page: undefined });
  return {
    list,
    page,
    setPage,
    setFilter,
    q: search.q ?? '',
    setQuery: (q: string) => setFilter({ q: q || undefined } as Partial<TSearch>),
    /** A filter's value and setter, for SelectFilter and DateRangeFilter: `{...paged.filter('role')}`. */
    filter: <K extends keyof TSearch & string>(key: K) => ({
      value: search[key],
      onChange: (value: TSearch[K] | undefined) => setFilter({ [key]: value } as unknown as Partial<TSearch>),
    }),
    /** Sorting starts again at page 1, like a filter. */
    setSort: (sort: ListSort) => setFilter({ sort: sort.by, dir: sort.dir } as Partial<TSearch>),
  };
}

/** What `usePagedList` gives a screen. */
export type PagedList<TSearch extends ListSearch, TData extends ListData> = ReturnType<
  typeof usePagedList<TSearch, TData>
>;
