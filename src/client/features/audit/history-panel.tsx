import { useInfiniteQuery } from '@tanstack/react-query';
import { ChevronDownIcon, ChevronRightIcon, HistoryIcon } from 'lucide-react';
import { useState } from 'react';
import { LoadError } from '@/components/load-error';
import { LoadMoreButton } from '@/components/load-more';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { Spinner } from '@/components/ui/spinner';
import { useIsAdmin } from '@/lib/auth';
import type { AuditEntityType } from '@shared/audit';
import { withWrapPoints } from '@/components/person-name';
import { ActionBadge, ActorName, AuditEntryDetails } from './audit-entry-details';
import { entityHistoryOptions, formatAuditTime } from './audit-queries';

/**
 * A record's History: its audit entries, newest first, each expanding to the field changes.
 * Only admins read the audit log (docs/audit.md#reading-it): for anyone else it is not shown.
 */
export function HistoryPanel({ entityType, entityId }: { entityType: AuditEntityType; entityId: string }) {
  const admin = useIsAdmin();
  if (!admin) return null;
  return <History entityType={entityType} entityId={entityId} />;
}

function History({ entityType, entityId }: { entityType: AuditEntityType; entityId: string }) {
  const list = useInfiniteQuery(entityHistoryOptions(entityType, entityId));
  const [open, setOpen] = useState<string | null>(null);
  const entries = list.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <Card className="mt-6 max-w-4xl" data-testid="history-panel">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <HistoryIcon className="size-5" /> History
          {list.isFetching && !list.isPending && <Spinner className="text-muted-foreground" />}
        </CardTitle>
      </CardHeader>
      <CardContent>
        {list.isError && <LoadError error={list.error} onRetry={() => void list.refetch()} />}
        {list.isPending && <Skeleton className="h-16 w-full" />}
        {list.data && entries.length === 0 && <p className="text-sm text-muted-foreground">No recorded changes yet.</p>}
        <ol className="divide-y">
          {entries.map((e) => (
            <li key={e.id} className="py-2" data-testid="history-entry">
              <div className="flex flex-wrap items-start gap-x-3 gap-y-1 text-sm">
                <Button
                  variant="ghost"
                  size="icon-sm"
                  aria-expanded={open === e.id}
                  aria-label={open === e.id ? 'Hide the changes' : 'Show the changes'}
                  onClick={() => setOpen(open === e.id ? null : e.id)}
                >
                  {open === e.id ? <ChevronDownIcon /> : <ChevronRightIcon />}
                </Button>
                <span className="w-44 pt-1 text-muted-foreground tabular-nums">{formatAuditTime(e.createdAt)}</span>
                <span className="pt-0.5">
                  <ActionBadge action={e.action} />
                </span>
                {/* At least 12rem, so on a phone it wraps below the time and badge instead of
                    shrinking to one letter a line beside them. */}
                <span className="min-w-48 flex-1 pt-1 [overflow-wrap:anywhere]" data-testid="history-summary">
                  {withWrapPoints(e.summary)}
                  <span className="ml-2 text-muted-foreground">
                    by <ActorName actor={e.actor} ip={e.ip} />
                  </span>
                </span>
              </div>
              {open === e.id && (
                <div className="pl-11">
                  <AuditEntryDetails entry={e} />
                </div>
              )}
            </li>
          ))}
        </ol>
        <LoadMoreButton list={list} className="mt-3">
          Load older entries
        </LoadMoreButton>
      </CardContent>
    </Card>
  );
}
