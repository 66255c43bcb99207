import type { QueryClient, UseQueryOptions } from '@tanstack/react-query';
import { useNavigate, useSearch, type LinkComponentProps, type ParsedLocation } from '@tanstack/react-router';
import type { TRPCQueryKey } from '@trpc/tanstack-react-query';
import { pageInput, sortOf, type ListSearch, type ListSort, type SortDir } from '@/lib/list-search';
import { cursorOf, type PageCursors } from '@/lib/page-cursors';
import type { TrpcError } from '@/lib/trpc';
import type { RouterContext } from '../router';

/**
 * The route options of a list screen driven by the URL (`?page=2&q=…&sort=…&dir=…` and its
 * filters): validated search params, and the list prefetched before the screen shows (with the
 * page's keyset cursor when Next led to it, see page-cursors.ts). A screen reached by two
 * addresses (`/branch` and `/branch/all-branch`) uses the same options in both route files, its
 * component given apart so the router can load it lazily:
 *   export const Route = createFileRoute('/_admin/branch/')({ ...branchListRoute, component: BranchListPage });
 */
export function listRoute<TSearch extends ListSearch>({
  validateSearch,
  prefetch,
  listPart = (search) => search,
}: {
  /** Reads the URL's search params; anything it does not know is dropped. */
  validateSearch: (search: Record<string, unknown>) => TSearch;
  /** Fills the cache before the screen shows; a failure shows the screen's own error state. */
  prefetch: (queryClient: QueryClient, search: TSearch, cursor: string | undefined) => Promise<unknown>;
  /** The params the list depends on, when the URL holds others too (a second tab's choices). */
  listPart?: (search: TSearch) => TSearch;
}) {
  return {
    validateSearch,
    loaderDeps: ({ search }: { search: TSearch }) => listPart(search),
    loader: ({ context, deps, location }: { context: RouterContext; deps: TSearch; location: ParsedLocation }) =>
      prefetch(context.queryClient, deps, cursorOf(location.state, deps.page ?? 1)),
  };
}

/** A list screen's URL search setter; `cursors` go with a move between pages (see page-cursors.ts). */
export type SearchSetter<TSearch> = (next: TSearch, cursors?: PageCursors) => void;

/**
 * A list screen's URL search and its setter (which replaces the history entry, so paging and
 * sorting do not fill the Back button). The route validated the params already; reading them
 * through the same function gives them the screen's type.
 */
export function useUrlSearch<TSearch extends object>(
  validateSearch: (search: Record<string, unknown>) => TSearch,
): [TSearch, SearchSetter<TSearch>] {
  const search = validateSearch(useSearch({ strict: false }));
  const navigate = useNavigate();
  return [
    search,
    (next, cursors) =>
      void navigate({ to: '.', search: next, replace: true, state: cursors && { pageCursors: cursors } }),
  ];
}

/** The input every list procedure takes from the URL: page, page size, search text, sort and the page's cursor. */
export type ListInput<TSort extends string> = ReturnType<typeof pageInput> & { sortBy: TSort; sortDir: SortDir };

/** A list's answer as the screen reads it; keyset-paged lists name where the page ended. */
export interface ListData {
  items: Array<{ _id: string }>;
  total: number;
  nextCursor?: string | null;
}

/** A list procedure's query, as `trpc.<domain>.list.queryOptions(input)` makes it. */
export type ListQueryOptions<TData extends ListData> = UseQueryOptions<TData, TrpcError, TData, TRPCQueryKey>;

/**
 * How a list screen names itself and its rows. `record` marks rows for tests
 * (`data-testid="course-row"`); `plural` gives the table's name ('Courses'), its search box's
 * ('Search courses') and the empty state ('No courses found.', or 'No courses match your search.'
 * while a search or filter is set).
 */
export interface ListNames {
  record: string;
  plural: string;
  /** The search box's placeholder ('Search by name or category'). */
  search: string;
  /** The table's accessible name when it is not the capitalised plural. */
  label?: string;
  /** One empty text whatever the search. */
  empty?: string;
}

/** What a list screen shows around its table (`ListPage` draws it). */
export interface ListScreen {
  names: ListNames;
  header: { title: string; description: string };
  /** The header's create button ("Add Branch"); `adminOnly` hides it from managers. */
  add?: { to: LinkComponentProps['to']; label: string; adminOnly?: boolean };
  /** Keeps non-staff out of the table (`'table'`: the header stays) or the whole screen (`'page'`). */
  guard?: 'table' | 'page';
}

/**
 * A server-paged list in one place: its URL search, page size and sort columns, the query that
 * turns the URL (and the page's cursor) into the procedure's input (route loader and screen ask
 * for the same query), the route options of every address that shows it, and the words of its
 * screen. `listPage` draws it. Lists show 25 rows a page unless told otherwise:
 *   export const branchList = defineList({
 *     validateSearch: validateListSearch,
 *     sortColumns: ['name', 'location'],
 *     defaultSort: { by: 'name', dir: 'asc' },
 *     query: (input) => trpc.branches.list.queryOptions(input),
 *     screen: { names: { record: 'branch', plural: 'branches', search: '…' }, header: { … } },
 *   });
 */
export function defineList<TSearch extends ListSearch, TSort extends string, TData extends ListData>({
  pageSize = 25,
  validateSearch,
  sortColumns,
  defaultSort,
  query,
  prefetchAlso,
  screen,
}: {
  pageSize?: number;
  validateSearch: (search: Record<string, unknown>) => TSearch;
  /** The columns the list procedure sorts by; anything else in the URL falls back to `defaultSort`. */
  sortColumns: readonly TSort[];
  /** Without a choice in the URL; most lists are `NEWEST_FIRST`. */
  defaultSort: ListSort<NoInfer<TSort>>;
  /** `trpc.<domain>.list.queryOptions(…)` for the URL's search (`input` holds its paging, sort and cursor). */
  query: (input: ListInput<TSort>, search: TSearch) => ListQueryOptions<TData>;
  /** More the route fills before the screen shows (the statistics over the enrolments). */
  prefetchAlso?: (queryClient: QueryClient) => Promise<unknown>;
  screen: ListScreen;
}) {
  const sort = (search: ListSearch): ListSort<TSort> => sortOf(search, sortColumns, defaultSort);
  /** The query of the page the URL names; `cursor` reads it by keyset (see page-cursors.ts). */
  const options = (search: TSearch, cursor: string | undefined) => {
    const { by, dir } = sort(search);
    return query({ ...pageInput(search, pageSize, cursor), sortBy: by, sortDir: dir }, search);
  };
  return {
    screen,
    pageSize,
    validateSearch,
    sort,
    options,
    route: listRoute({
      validateSearch,
      prefetch: (queryClient, search, cursor) =>
        Promise.all([queryClient.prefetchQuery(options(search, cursor)), prefetchAlso?.(queryClient)]),
    }),
  };
}

export type ListDef<TSearch extends ListSearch, TSort extends string, TData extends ListData> = ReturnType<
  typeof defineList<TSearch, TSort, TData>
>;
