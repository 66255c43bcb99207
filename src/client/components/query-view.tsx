import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { LoadError } from '@/components/load-error';
import { Skeleton } from '@/components/ui/skeleton';

/**
 * What one query loads, in its place on the page: a placeholder of `placeholder`'s classes (its
 * size) while it loads, the load's error with Retry, then `children` with the data.
 */
export function QueryView<T>({
  query,
  placeholder,
  children,
}: {
  query: UseQueryResult<T, unknown>;
  placeholder: string;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <Skeleton className={placeholder} />;
  if (query.isError) return <LoadError error={query.error} onRetry={() => void query.refetch()} />;
  return children(query.data);
}
