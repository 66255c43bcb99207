import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { RotateCwIcon, SendIcon } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { LoadError } from '@/components/load-error';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { Spinner } from '@/components/ui/spinner';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { explainedMessage } from '@/lib/errors';
import { trpc } from '@/lib/trpc';
import { formatDateTime } from '@shared/format';
import { jobStatusOptions, type JobStateFilter } from './settings-queries';

const STATE_BADGE = { queued: 'secondary', active: 'warning', completed: 'success', failed: 'destructive' } as const;
const FILTERS: Array<{ value: JobStateFilter; label: string }> = [
  { value: 'all', label: 'All' },
  { value: 'queued', label: 'Queued' },
  { value: 'active', label: 'Active' },
  { value: 'failed', label: 'Failed' },
];

/** Background jobs (emails, reminders, report files): what waits, what runs, what failed and why. */
export function JobStatusCard() {
  const queryClient = useQueryClient();
  const [filter, setFilter] = useState<JobStateFilter>('all');
  const status = useQuery({ ...jobStatusOptions(filter), placeholderData: keepPreviousData });
  const refresh = () => queryClient.invalidateQueries(trpc.jobs.pathFilter());

  const retry = useMutation(
    trpc.jobs.retry.mutationOptions({
      onSuccess: async (res) => {
        toast.success(res.message);
        await refresh();
      },
      onError: async (err) => {
        toast.error(explainedMessage(err, 'Failed to retry the job. Please try again.'));
        await refresh();
      },
    }),
  );
  const remind = useMutation(
    trpc.jobs.sendReminders.mutationOptions({
      onSuccess: async (res) => {
        toast.success(res.message);
        await refresh();
      },
      onError: (err) => toast.error(explainedMessage(err, 'Failed to send reminders. Please try again.')),
    }),
  );

  const jobList = status.isError ? (
    <LoadError error={status.error} onRetry={() => void status.refetch()} />
  ) : status.isPending ? (
    <div className="grid gap-2">
      <Skeleton className="h-8 w-full" />
      <Skeleton className="h-8 w-full" />
    </div>
  ) : status.data.jobs.length === 0 ? (
    <p className="text-sm text-muted-foreground">No jobs here.</p>
  ) : (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead>Job</TableHead>
          <TableHead>State</TableHead>
          <TableHead>Attempts</TableHead>
          <TableHead>Created</TableHead>
          <TableHead>Reason</TableHead>
          <TableHead className="text-right">Action</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {status.data.jobs.map((job) => (
          <TableRow key={job.id}>
            <TableCell className="font-medium">{job.name}</TableCell>
            <TableCell>
              <Badge variant={STATE_BADGE[job.state]}>
                {job.state}
                {job.state === 'active' && job.progress > 0 && ` ${job.progress}%`}
              </Badge>
            </TableCell>
            <TableCell>
              {job.attempts} / {job.maxAttempts}
            </TableCell>
            <TableCell className="whitespace-nowrap">{formatDateTime(job.createdAt)}</TableCell>
            <TableCell className="max-w-xs text-sm break-words whitespace-normal text-muted-foreground">
              {job.failedReason ?? ''}
            </TableCell>
            <TableCell className="text-right">
              {job.state === 'failed' && (
                <Button
                  size="sm"
                  variant="outline"
                  onClick={() => retry.mutate({ id: job.id })}
                  disabled={retry.isPending}
                >
                  <RotateCwIcon />
                  Retry
                </Button>
              )}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
  const counts = status.data?.counts;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Background jobs</CardTitle>
        <CardDescription>
          Emails, overdue-payment reminders (daily) and large report files.
          {status.data &&
            ` Running ${status.data.driver === 'bullmq' ? 'on the worker (Redis)' : 'inside the server'}.`}
        </CardDescription>
        <CardAction>
          <Button variant="outline" size="sm" onClick={() => remind.mutate()} disabled={remind.isPending}>
            {remind.isPending ? <Spinner /> : <SendIcon />}
            Send reminders now
          </Button>
        </CardAction>
      </CardHeader>
      <CardContent className="grid grid-cols-1 gap-4">
        {counts && (
          <div className="flex flex-wrap gap-2" data-testid="job-counts">
            <Badge variant="secondary">Queued {counts.queued}</Badge>
            <Badge variant="warning">Active {counts.active}</Badge>
            <Badge variant={counts.failed > 0 ? 'destructive' : 'outline'}>Failed {counts.failed}</Badge>
            <Badge variant="success">Completed {counts.completed}</Badge>
          </div>
        )}
        <Tabs value={filter} onValueChange={(v) => setFilter(v as JobStateFilter)}>
          <TabsList>
            {FILTERS.map((f) => (
              <TabsTrigger key={f.value} value={f.value}>
                {f.label}
              </TabsTrigger>
            ))}
          </TabsList>
          {/* Every tab controls a panel (aria-controls must point at one); the shown one holds the list. */}
          {FILTERS.map((f) => (
            <TabsContent key={f.value} value={f.value}>
              {f.value === filter && jobList}
            </TabsContent>
          ))}
        </Tabs>
      </CardContent>
    </Card>
  );
}
