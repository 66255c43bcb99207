import type { QueryClient } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import type { RouterContext } from '../router';

/**
 * The route options of a list screen driven by the URL (`?page=2&q=…&sort=…&dir=…` and its
 * filters): validated search params, and the list prefetched before the screen shows. A screen
 * reached by two addresses (`/branch` and `/branch/all-branch`) uses the same options in both
 * route files, its component given apart so the router can load it lazily:
 *   export const Route = createFileRoute('/_admin/branch/')({ ...branchListRoute, component: BranchListPage });
 */
export function listRoute<TSearch extends object>({
  validateSearch,
  prefetch,
  listPart = (search) => search,
}: {
  /** Reads the URL's search params; anything it does not know is dropped. */
  validateSearch: (search: Record<string, unknown>) => TSearch;
  /** Fills the cache before the screen shows; a failure shows the screen's own error state. */
  prefetch: (queryClient: QueryClient, search: TSearch) => Promise<unknown>;
  /** The params the list depends on, when the URL holds others too (a second tab's choices). */
  listPart?: (search: TSearch) => TSearch;
}) {
  return {
    validateSearch,
    loaderDeps: ({ search }: { search: TSearch }) => listPart(search),
    loader: ({ context, deps }: { context: RouterContext; deps: TSearch }) => prefetch(context.queryClient, deps),
  };
}

/**
 * A list screen's URL search and its setter (which replaces the history entry, so paging and
 * sorting do not fill the Back button). The route validated the params already; reading them
 * through the same function gives them the screen's type.
 */
export function useUrlSearch<TSearch extends object>(
  validateSearch: (search: Record<string, unknown>) => TSearch,
): [TSearch, (next: TSearch) => void] {
  const search = validateSearch(useSearch({ strict: false }));
  const navigate = useNavigate();
  return [search, (next) => void navigate({ to: '.', search: next, replace: true })];
}
