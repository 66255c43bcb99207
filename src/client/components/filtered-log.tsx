import type { ReactNode } from 'react';
import { FilterBar } from '@/components/filter-field';
import { LoadError } from '@/components/load-error';
import { LoadMoreFooter, type NextPages } from '@/components/load-more';
import { Card, CardContent } from '@/components/ui/card';

/** The part of an infinite query the log card reads. */
export interface LogQuery extends NextPages {
  isFetching: boolean;
  isPending: boolean;
  data?: unknown;
}

/**
 * A log read page by page (the audit log, the message log): the filter row, then the list or why
 * it did not load, then how much of it is shown with Load more.
 */
export function FilteredLog({
  filters,
  filtered,
  onClear,
  list,
  failed,
  shown,
  children,
}: {
  filters: ReactNode;
  filtered: boolean;
  onClear: () => void;
  list: LogQuery;
  /** The error that stops the list from showing, if any, and how to try again. */
  failed: { error: unknown; onRetry: () => void } | null;
  shown: ReactNode;
  children: ReactNode;
}) {
  return (
    <Card className="gap-4">
      <FilterBar filtered={filtered} onClear={onClear} refreshing={list.isFetching && !list.isPending}>
        {filters}
      </FilterBar>
      <CardContent>
        {failed ? (
          <LoadError error={failed.error} onRetry={failed.onRetry} />
        ) : (
          <>
            {children}
            {list.data !== undefined && <LoadMoreFooter list={list}>{shown}</LoadMoreFooter>}
          </>
        )}
      </CardContent>
    </Card>
  );
}
