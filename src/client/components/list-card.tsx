import type { ReactNode } from 'react';
import { LoadError } from '@/components/load-error';
import { Pagination } from '@/components/pagination';
import { SearchInput } from '@/components/search-input';
import { Card, CardContent } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { Spinner } from '@/components/ui/spinner';
import { Table, TableBody, TableCell, TableHeader, TableRow } from '@/components/ui/table';

/** What the card needs of `usePagedList`. */
interface PagedList {
  list: {
    data?: { items: unknown[]; total: number };
    error: unknown;
    isPending: boolean;
    isFetching: boolean;
    isError: boolean;
    refetch: () => unknown;
  };
  page: number;
  setPage: (page: number) => void;
  q: string;
  setQuery: (q: string) => void;
}

/**
 * The card of a server-paged list screen: the search box (and any filters) over a 500px
 * scrolling table, its loading, empty and 'Error: {message}' states, and the paging footer.
 * The caller renders the header cells and the rows.
 */
export function ListCard({
  paged: { list, page, setPage, q, setQuery },
  searchPlaceholder,
  searchLabel,
  filters,
  summary,
  label,
  head,
  columns,
  empty,
  pageSize,
  children,
}: {
  paged: PagedList;
  searchPlaceholder: string;
  searchLabel: string;
  filters?: ReactNode;
  /** Shown over the table once the list is loaded (the Payments list's totals). */
  summary?: ReactNode;
  /** The table's accessible name. */
  label: string;
  /** The header cells (`<TableHead>`s). */
  head: ReactNode;
  columns: number;
  /** The text of the empty state (no rows, or none matching the search). */
  empty: string;
  pageSize: number;
  children: ReactNode;
}) {
  return (
    <Card className="gap-4">
      <CardContent
        className={filters ? 'flex flex-wrap items-end gap-3' : 'flex flex-wrap items-center justify-between gap-3'}
      >
        <SearchInput value={q} onChange={setQuery} placeholder={searchPlaceholder} aria-label={searchLabel} />
        {filters}
        {list.isFetching && !list.isPending && <Spinner className="text-muted-foreground" />}
      </CardContent>
      <CardContent>
        {list.isError ? (
          <LoadError error={list.error} onRetry={() => void list.refetch()} />
        ) : (
          <>
            {list.data && summary}
            <Table containerClassName="max-h-[500px] overflow-y-auto rounded-md border" aria-label={label}>
              <TableHeader className="sticky top-0 z-10 bg-background">
                <TableRow>{head}</TableRow>
              </TableHeader>
              <TableBody>
                <TableStates
                  columns={columns}
                  loading={list.isPending}
                  empty={list.data?.items.length === 0 ? empty : undefined}
                />
                {children}
              </TableBody>
            </Table>
            {list.data && <Pagination page={page} pageSize={pageSize} total={list.data.total} onPageChange={setPage} />}
          </>
        )}
      </CardContent>
    </Card>
  );
}

/** A table's loading rows while its first answer is awaited, and its empty-state row. */
export function TableStates({ columns, loading, empty }: { columns: number; loading: boolean; empty?: ReactNode }) {
  return (
    <>
      {loading &&
        Array.from({ length: 4 }, (_, i) => (
          <TableRow key={i} data-testid="loading-row">
            <TableCell colSpan={columns}>
              <Skeleton className="h-6 w-full" />
            </TableCell>
          </TableRow>
        ))}
      {empty !== undefined && (
        <TableRow>
          <TableCell colSpan={columns} className="py-10 text-center text-muted-foreground">
            {empty}
          </TableCell>
        </TableRow>
      )}
    </>
  );
}
