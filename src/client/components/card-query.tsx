import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { LoadError } from '@/components/load-error';
import { CardContent } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';

/**
 * A card's form over what one query loads (a settings form, a template): the load's error with
 * Retry, a placeholder per row of the form while it loads (`placeholders`, each one's classes),
 * then `children` with the data.
 */
export function CardQuery<T>({
  query,
  placeholders,
  children,
}: {
  query: UseQueryResult<T, unknown>;
  placeholders: string[];
  children: (data: T) => ReactNode;
}) {
  if (query.isError)
    return (
      <CardContent>
        <LoadError error={query.error} onRetry={() => void query.refetch()} />
      </CardContent>
    );
  if (query.isPending)
    return (
      <CardContent className="grid gap-3">
        {placeholders.map((className, i) => (
          <Skeleton key={i} className={className} />
        ))}
      </CardContent>
    );
  return children(query.data);
}
