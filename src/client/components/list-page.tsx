import type { QueryKey } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { DataList, type ListColumn } from '@/components/data-list';
import { PageHeader } from '@/components/page-header';
import { PermissionDenied, RequireRole, STAFF_ROLES } from '@/components/require-role';
import { useUrlSearch, type ListData, type ListDef } from '@/lib/list-route';
import type { ListSearch } from '@/lib/list-search';
import { usePagedList, type PagedList } from '@/lib/use-paged-list';

/** What a list screen's table hook is given: the URL search and the paged list. */
export interface ListView<
  TSearch extends ListSearch,
  TData extends ListData,
  TError = unknown,
  TKey extends QueryKey = QueryKey,
> {
  search: TSearch;
  paged: PagedList<TSearch, TData, TError, TKey>;
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
  L extends ListDef<infer TSearch, infer TSort, infer TData, infer TError, infer TKey>
    ? (view: ListView<TSearch, TData, TError, TKey>) => ListTable<TData['items'][number], TSort>
    : never;

/**
 * How a list names its rows: `record` marks them for tests (`data-testid="course-row"`), `plural`
 * gives the table's name ('Courses'), its search box's ('Search courses') and the empty state
 * ('No courses found.', or 'No courses match your search.' while a search or filter is set).
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

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Whether the search narrows the list (search text or a filter), as opposed to paging or sorting it. */
function narrowed(search: ListSearch): boolean {
  return Object.entries(search).some(([key, value]) => value !== undefined && !['page', 'sort', 'dir'].includes(key));
}

/**
 * A list screen (docs/product.md#screens-and-routes): its header, then the list of `list` searched,
 * filtered, sorted and paged in the URL, its columns and delete confirmation from `useTable`.
 * `guard` keeps non-staff out of the table (`'table'`: the header stays) or the whole screen (`'page'`).
 *   <ListPage list={branchList} names={{ record: 'branch', plural: 'branches' }} header={…} useTable={useBranchTable} />
 */
export function ListPage<
  TSearch extends ListSearch,
  TSort extends string,
  TRow extends { _id: string },
  TData extends ListData & { items: TRow[] },
  TError,
  TKey extends QueryKey,
>({
  header,
  actions,
  guard,
  above,
  ...table
}: TableProps<TSearch, TSort, TRow, TData, TError, TKey> & {
  header: { title: string; description: string };
  /** The header's buttons (an `AddLink`). */
  actions?: ReactNode;
  guard?: 'table' | 'page';
  /** Between the header and the list (statistics cards). */
  above?: ReactNode;
}) {
  const body = (
    <>
      {above}
      <ListTableView {...table} />
    </>
  );
  const page = (
    <div>
      <PageHeader {...header} actions={actions} />
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
}

interface TableProps<
  TSearch extends ListSearch,
  TSort extends string,
  TRow extends { _id: string },
  TData extends ListData & { items: TRow[] },
  TError,
  TKey extends QueryKey,
> {
  list: ListDef<TSearch, TSort, TData, TError, TKey>;
  names: ListNames;
  /** The screen's columns, filters and dialogs; a hook, so it may hold the screen's mutations. */
  useTable: (view: ListView<TSearch, TData, TError, TKey>) => ListTable<TRow, TSort>;
}

function ListTableView<
  TSearch extends ListSearch,
  TSort extends string,
  TRow extends { _id: string },
  TData extends ListData & { items: TRow[] },
  TError,
  TKey extends QueryKey,
>({ list, names, useTable }: TableProps<TSearch, TSort, TRow, TData, TError, TKey>) {
  const [search, onSearchChange] = useUrlSearch(list.validateSearch);
  const paged = usePagedList(list.options(search), search, onSearchChange);
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
