import { keepPreviousData, useQuery, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { ListSearch, ListSort } from '@/lib/list-search';

/**
 * A server-paged list driven by the URL search (`?page=2&q=kandy&...`): the query keeps the
 * previous page on screen while the next one loads, and the setters write the search back.
 */
export function usePagedList<
  TSearch extends ListSearch,
  TData extends { items: unknown[]; total: number },
  TError,
  TKey extends QueryKey,
>(options: UseQueryOptions<TData, TError, TData, TKey>, search: TSearch, onSearchChange: (next: TSearch) => void) {
  const page = search.page ?? 1;
  const list = useQuery({ ...options, placeholderData: keepPreviousData });

  // Deleting the last row of the last page leaves an empty page: step back.
  const items = list.data?.items;
  useEffect(() => {
    if (items && items.length === 0 && page > 1 && !list.isPlaceholderData)
      onSearchChange({ ...search, page: page - 1 });
  }, [items, page, list.isPlaceholderData, onSearchChange, search]);

  /** A new search text or filter starts again at page 1. */
  const setFilter = (patch: Partial<TSearch>) => onSearchChange({ ...search, ...patch, page: undefined });
  return {
    list,
    page,
    setPage: (p: number) => onSearchChange({ ...search, page: p > 1 ? p : undefined }),
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
export type PagedList<
  TSearch extends ListSearch,
  TData extends { items: unknown[]; total: number },
  TError = unknown,
  TKey extends QueryKey = QueryKey,
> = ReturnType<typeof usePagedList<TSearch, TData, TError, TKey>>;
