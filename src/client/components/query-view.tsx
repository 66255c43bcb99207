import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { LoadError } from '@/components/load-error';
import { Skeleton } from '@/components/ui/skeleton';

/**
 * What one query loads, in its place on the page: a placeholder of `placeholder`'s classes (its
 * size) while it loads, the load's error with Retry, then `children` with the data. `empty`, when
 * given, returns the muted line that stands instead of an empty list ("No rooms yet."), or false
 * when there is something to show.
 */
export function QueryView<T>({
  query,
  placeholder,
  empty,
  children,
}: {
  query: UseQueryResult<T, unknown>;
  placeholder: string;
  empty?: (data: T) => ReactNode | false;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <Skeleton className={placeholder} />;
  if (query.isError) return <LoadError error={query.error} onRetry={() => void query.refetch()} />;
  const none = empty?.(query.data);
  if (none) return <p className="text-sm text-muted-foreground">{none}</p>;
  return children(query.data);
}
