import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { StatsError } from './stat-card';
import { LabelledField } from '@/components/labelled-field';

/** A report's From and To days, two labelled date boxes whose ids start with `id`. */
export function DayRangeInputs({
  id,
  from,
  to,
  onFrom,
  onTo,
}: {
  id: string;
  from: string;
  to: string;
  onFrom: (day: string) => void;
  onTo: (day: string) => void;
}) {
  return (
    <>
      <LabelledField id={`${id}-from`} label="From">
        <Input id={`${id}-from`} type="date" value={from} onChange={(e) => onFrom(e.target.value)} />
      </LabelledField>
      <LabelledField id={`${id}-to`} label="To">
        <Input id={`${id}-to`} type="date" value={to} onChange={(e) => onTo(e.target.value)} />
      </LabelledField>
    </>
  );
}

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
