import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { LoadError } from '@/components/load-error';
import { Pagination } from '@/components/pagination';
import { TitledCard } from '@/components/titled-card';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableHeader, TableRow } from '@/components/ui/table';

/** Records that belong to the one on screen, a page at a time (`usePagedRecords`). */
export const RELATED_PAGE_SIZE = 10;

/**
 * A detail screen's card of the records related to it (a course's enrolments, a user's
 * bookings): a scrolling table of one server page, each row leading to its record.
 */
export function RelatedCard<T>({
  title,
  label,
  query,
  page,
  onPageChange,
  head,
  empty,
  children,
}: {
  title: string;
  /** The table's accessible name. */
  label: string;
  query: UseQueryResult<{ items: T[]; total: number }, unknown>;
  page: number;
  onPageChange: (page: number) => void;
  head: ReactNode;
  empty: string;
  children: (item: T) => ReactNode;
}) {
  const data = query.data;
  return (
    <div className="mt-6 max-w-4xl" data-testid="related-records">
      <TitledCard title={title}>
        {query.isError && <LoadError error={query.error} onRetry={() => void query.refetch()} />}
        {query.isPending && <Skeleton className="h-24 w-full" />}
        {data && data.total === 0 && <p className="text-sm text-muted-foreground">{empty}</p>}
        {data && data.total > 0 && (
          <>
            <Table containerClassName="rounded-md border" aria-label={label}>
              <TableHeader>
                <TableRow>{head}</TableRow>
              </TableHeader>
              <TableBody>{data.items.map(children)}</TableBody>
            </Table>
            {data.total > RELATED_PAGE_SIZE && (
              <Pagination page={page} pageSize={RELATED_PAGE_SIZE} total={data.total} onPageChange={onPageChange} />
            )}
          </>
        )}
      </TitledCard>
    </div>
  );
}
