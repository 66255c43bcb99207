import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ScreenTitle } from './layout';
import { Loaded } from './states';
import { Badge, Card, type Tone } from './ui';

/**
 * A screen listing the person's own records (courses, treatments), one card each: it waits, offers
 * another try when the load fails, and says `none` when there are no records yet.
 */
export function RecordsScreen<T extends { _id: string }>({
  title,
  none,
  list,
  children,
}: {
  title: string;
  none: string;
  list: UseQueryResult<{ data: T[] }, unknown>;
  children: (record: T) => ReactNode;
}) {
  return (
    <>
      <ScreenTitle>{title}</ScreenTitle>
      <Loaded query={list}>
        {({ data }) =>
          data.length === 0 ? (
            <Card>
              <p className="text-sm">{none}</p>
            </Card>
          ) : (
            <div className="grid gap-4">{data.map(children)}</div>
          )
        }
      </Loaded>
    </>
  );
}

/** A record card's top line: its name (which names the card, `id`), when it began, its status. */
export function RecordHeading({
  id,
  title,
  since,
  status,
  tone,
}: {
  id: string;
  title: string;
  since: string;
  status: string;
  tone: Tone;
}) {
  return (
    <div className="flex flex-wrap items-start justify-between gap-2">
      <div className="min-w-0">
        <h2 id={id} className="text-lg font-semibold break-words">
          {title}
        </h2>
        <p className="text-sm text-muted-foreground">{since}</p>
      </div>
      <Badge tone={tone}>{status}</Badge>
    </div>
  );
}

/** A thin bar filled `value` of `max` (sessions done, attendance), read out as a progress bar. */
export function ProgressBar({ label, value, max }: { label: string; value: number; max: number }) {
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={max}
      aria-valuenow={value}
      className="h-2 overflow-hidden rounded-full bg-muted"
    >
      <div className="h-full bg-primary" style={{ width: `${max > 0 ? Math.round((value / max) * 100) : 0}%` }} />
    </div>
  );
}
