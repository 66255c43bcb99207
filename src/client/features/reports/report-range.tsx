import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Skeleton } from '@/components/ui/skeleton';
import { StatsError } from './stat-card';

/** A report's figures once they are in: a placeholder while they load, the statistics error if they fail. */
export function ReportResult<T>({
  report,
  children,
}: {
  report: UseQueryResult<T, unknown>;
  children: (data: T) => ReactNode;
}) {
  if (report.isPending) return <Skeleton className="h-48 w-full" />;
  if (report.isError) return <StatsError error={report.error} />;
  return children(report.data);
}
