/**
 * The URL search params of a server-paged list (`?page=2&q=kandy`), validated in route files:
 *   validateSearch: validateListSearch
 * so a list's page and search survive reloads and links.
 */
export interface ListSearch {
  page?: number;
  q?: string;
}

export function validateListSearch(search: Record<string, unknown>): ListSearch {
  const page = Number(search.page);
  const q = typeof search.q === 'string' ? search.q.trim().slice(0, 200) : '';
  return {
    page: Number.isInteger(page) && page > 1 ? page : undefined,
    q: q || undefined,
  };
}

/** A filter value from the URL that must be one of `values`; anything else is dropped. */
export function oneOf<T extends string>(values: readonly T[], value: unknown): T | undefined {
  return (values as readonly unknown[]).includes(value) ? (value as T) : undefined;
}

/** The paging and search part of a list procedure's input. */
export function pageInput(search: ListSearch, pageSize: number) {
  return { page: search.page ?? 1, pageSize, search: search.q };
}
