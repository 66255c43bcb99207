import { Link, type LinkComponentProps } from '@tanstack/react-router';
import { PlusIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { DataList, type ListColumn } from '@/components/data-list';
import { PageHeader } from '@/components/page-header';
import { PermissionDenied, RequireRole, STAFF_ROLES } from '@/components/require-role';
import { Button } from '@/components/ui/button';
import { useIsAdmin } from '@/lib/auth';
import { useUrlSearch, type ListData, type ListDef } from '@/lib/list-route';
import type { ListSearch } from '@/lib/list-search';
import { usePagedList, type PagedList } from '@/lib/use-paged-list';

/** What a list screen's table hook is given: the URL search and the paged list. */
export interface ListView<TSearch extends ListSearch, TData extends ListData> {
  search: TSearch;
  paged: PagedList<TSearch, TData>;
}

/** What a list screen's table hook gives back: its columns, its filters and its delete confirmation. */
export interface ListTable<TRow, TSort extends string> {
  columns: Array<ListColumn<TRow, TSort>>;
  filters?: ReactNode;
  /** Rendered under the table (a `DeleteConfirm`). */
  dialog?: ReactNode;
}

/**
 * The table hook of a list screen, typed from its list:
 *   const useBranchTable: TableHook<typeof branchList> = ({ search, paged }) => { …; return { columns, dialog } };
 */
export type TableHook<L> =
  L extends ListDef<infer TSearch, infer TSort, infer TData>
    ? (view: ListView<TSearch, TData>) => ListTable<TData['items'][number], TSort>
    : never;

/**
 * A list screen's header action that opens its create form ("Add Branch", "Enroll Student");
 * `adminOnly` shows it to admins and superadmins only (the server refuses the others' creates).
 */
function AddLink({
  to,
  adminOnly,
  children,
}: {
  to: LinkComponentProps['to'];
  adminOnly?: boolean;
  children: ReactNode;
}) {
  const admin = useIsAdmin();
  if (adminOnly && !admin) return null;
  return (
    <Button asChild>
      <Link to={to}>
        <PlusIcon /> {children}
      </Link>
    </Button>
  );
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Whether the search narrows the list (search text or a filter), as opposed to paging or sorting it. */
function narrowed(search: ListSearch): boolean {
  return Object.entries(search).some(([key, value]) => value !== undefined && !['page', 'sort', 'dir'].includes(key));
}

/**
 * A list screen (docs/product.md#screens-and-routes): the header of `list.screen`, then the list
 * searched, filtered, sorted and paged in the URL, its columns and delete confirmation from
 * `useTable` (a hook, so it may hold the screen's mutations). `actions` are more header buttons
 * beside the create button, `above` sits between the header and the list (statistics cards).
 * Declared once per screen, after its table hook:
 *   export const BranchListPage = listPage(branchList, useBranchTable);
 */
export function listPage<TSearch extends ListSearch, TSort extends string, TData extends ListData>(
  list: ListDef<TSearch, TSort, TData>,
  useTable: (view: ListView<TSearch, TData>) => ListTable<TData['items'][number], TSort>,
  { actions, above }: { actions?: ReactNode; above?: ReactNode } = {},
) {
  const { names, header, add, guard } = list.screen;

  // Its own component, so that behind the 'table' guard none of its queries run for non-staff.
  function Table() {
    const [search, onSearchChange] = useUrlSearch(list.validateSearch);
    const paged = usePagedList((cursor) => list.options(search, cursor), search, onSearchChange);
    const { columns, filters, dialog } = useTable({ search, paged });
    const empty = narrowed(search) ? `No ${names.plural} match your search.` : `No ${names.plural} found.`;
    return (
      <>
        <DataList
          paged={paged}
          sort={list.sort(search)}
          searchPlaceholder={names.search}
          searchLabel={`Search ${names.plural}`}
          filters={filters}
          label={names.label ?? capitalise(names.plural)}
          empty={names.empty ?? empty}
          pageSize={list.pageSize}
          record={names.record}
          columns={columns}
        />
        {dialog}
      </>
    );
  }

  return function ListPage() {
    const body = (
      <>
        {above}
        <Table />
      </>
    );
    const page = (
      <div>
        <PageHeader
          {...header}
          actions={
            <>
              {actions}
              {add && (
                <AddLink to={add.to} adminOnly={add.adminOnly}>
                  {add.label}
                </AddLink>
              )}
            </>
          }
        />
        {guard === 'table' ? <RequireRole roles={STAFF_ROLES}>{body}</RequireRole> : body}
      </div>
    );
    return guard === 'page' ? (
      <RequireRole roles={STAFF_ROLES} fallback={<PermissionDenied title="Access Denied" />}>
        {page}
      </RequireRole>
    ) : (
      page
    );
  };
}
