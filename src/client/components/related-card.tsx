import { keepPreviousData, useQuery, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';
import { useState } from 'react';
import { StaticList, type ListColumn } from '@/components/data-list';
import { LoadError } from '@/components/load-error';
import { Pagination } from '@/components/pagination';
import { TitledCard } from '@/components/titled-card';
import { Skeleton } from '@/components/ui/skeleton';

/** Records that belong to the one on screen, a page at a time. */
export const RELATED_PAGE_SIZE = 10;

/**
 * A detail screen's card of the records related to it (a course's enrolments, a user's
 * bookings): a table of one server page, newest first, each row leading to its record.
 *   <RelatedCard query={(page) => trpc.bookings.list.queryOptions({ userId, page, pageSize: RELATED_PAGE_SIZE, sortDir: 'desc' })} … />
 */
export function RelatedCard<
  TData extends { items: Array<{ _id: string }>; total: number },
  TError,
  TKey extends QueryKey,
>({
  title,
  label,
  query: optionsFor,
  columns,
  rowTestId,
  empty,
}: {
  title: string;
  /** The table's accessible name. */
  label: string;
  /** The list procedure's query options for a page. */
  query: (page: number) => UseQueryOptions<TData, TError, TData, TKey>;
  columns: Array<ListColumn<TData['items'][number]>>;
  rowTestId: string;
  empty: string;
}) {
  const [page, setPage] = useState(1);
  const query = useQuery({ ...optionsFor(page), placeholderData: keepPreviousData });
  const data = query.data;
  return (
    <div className="mt-6 max-w-4xl" data-testid="related-records">
      <TitledCard title={title}>
        {query.isError && <LoadError error={query.error} onRetry={() => void query.refetch()} />}
        {query.isPending && <Skeleton className="h-24 w-full" />}
        {data && data.total === 0 && <p className="text-sm text-muted-foreground">{empty}</p>}
        {data && data.total > 0 && (
          <>
            <StaticList
              label={label}
              items={data.items}
              columns={columns}
              empty={empty}
              rowProps={() => ({ 'data-testid': rowTestId })}
            />
            {data.total > RELATED_PAGE_SIZE && (
              <Pagination page={page} pageSize={RELATED_PAGE_SIZE} total={data.total} onPageChange={setPage} />
            )}
          </>
        )}
      </TitledCard>
    </div>
  );
}
