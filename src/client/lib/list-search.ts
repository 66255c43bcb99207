/**
 * The URL search params of a server-paged list (`?page=2&q=kandy&sort=name&dir=desc`), validated
 * in route files:
 *   validateSearch: validateListSearch
 * so a list's page, search and sort survive reloads and links.
 */
export interface ListSearch {
  page?: number;
  q?: string;
  /** A column the list's server procedure sorts by (checked per list by `sortOf`). */
  sort?: string;
  dir?: SortDir;
}

export type SortDir = 'asc' | 'desc';

export interface ListSort<T extends string = string> {
  by: T;
  dir: SortDir;
}

export function validateListSearch(search: Record<string, unknown>): ListSearch {
  const page = Number(search.page);
  const q = typeof search.q === 'string' ? search.q.trim().slice(0, 200) : '';
  const sort = typeof search.sort === 'string' && /^[A-Za-z]{1,40}$/.test(search.sort) ? search.sort : undefined;
  return {
    page: Number.isInteger(page) && page > 1 ? page : undefined,
    q: q || undefined,
    sort,
    dir: sort ? oneOf(['asc', 'desc'] as const, search.dir) : undefined,
  };
}

/**
 * The URL search of a list with one filter that must be one of `values` (`?status=overdue`);
 * anything else is dropped:
 *   validateSearch: searchWithFilter('role', ROLES)
 */
export function searchWithFilter<K extends string, V extends string>(key: K, values: readonly V[]) {
  // A computed key types as a string index, which TypeScript does not narrow to `K`.
  return (search: Record<string, unknown>) =>
    ({ ...validateListSearch(search), [key]: oneOf(values, search[key]) }) as ListSearch & { [P in K]?: V };
}

/** The order of most lists without a choice in the URL. */
export const NEWEST_FIRST = { by: 'createdAt', dir: 'desc' } as const satisfies ListSort;

/** The list's sort: the URL's column when the server sorts by it (ascending unless asked), else the default. */
export function sortOf<T extends string>(
  search: ListSearch,
  columns: readonly T[],
  fallback: ListSort<T>,
): ListSort<T> {
  const by = oneOf(columns, search.sort);
  return by ? { by, dir: search.dir ?? 'asc' } : fallback;
}

/** A filter value from the URL that must be one of `values`; anything else is dropped. */
export function oneOf<T extends string>(values: readonly T[], value: unknown): T | undefined {
  return (values as readonly unknown[]).includes(value) ? (value as T) : undefined;
}

/** The paging and search part of a list procedure's input; `cursor` reads the page by keyset. */
export function pageInput(search: ListSearch, pageSize: number, cursor?: string) {
  return { page: search.page ?? 1, pageSize, search: search.q, ...(cursor && { cursor }) };
}

/**
 * A log screen's filters kept in its URL search: `set` merges a change, `filter(key)` gives a
 * filter control its value and onChange, and `filtered` says whether any filter but `kept` (the
 * sort, the tab) is set, for Clear filters and the empty text.
 */
export function searchFilters<S extends object>(search: S, onSearchChange: (next: S) => void, kept: keyof S) {
  const set = (patch: Partial<S>) => onSearchChange({ ...search, ...patch });
  return {
    set,
    filter: <K extends keyof S>(key: K) => ({
      value: search[key],
      // A computed key types as a string index, which TypeScript does not narrow to `Partial<S>`.
      onChange: (value: S[K] | undefined) => set({ [key]: value } as Partial<S>),
    }),
    filtered: Object.entries(search).some(([key, value]) => key !== kept && Boolean(value)),
  };
}
