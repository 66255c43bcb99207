import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { LoadError } from '@/components/load-error';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { explainedMessage } from '@/lib/errors';
import { trpc } from '@/lib/trpc';
import { formatDateTime } from '@shared/format';
import { ZAddTimeOffBody } from '@shared/schemas/practitioners';

/** A datetime-local value (the screen's own zone) as an instant, or the text as typed when it is none. */
const toInstant = (local: string) => {
  const d = new Date(local);
  return local && !Number.isNaN(d.getTime()) ? d.toISOString() : local;
};

/** A practitioner's time off: listed in start order, added from a start and an end, removed. */
export function TimeOffPanel({ practitionerId }: { practitionerId: string }) {
  const queryClient = useQueryClient();
  const list = useQuery(trpc.practitioners.timeOff.list.queryOptions({ id: practitionerId }));
  const [start, setStart] = useState('');
  const [end, setEnd] = useState('');
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries(trpc.practitioners.timeOff.pathFilter());
  const add = useMutation(
    trpc.practitioners.timeOff.add.mutationOptions({
      onSuccess: async () => {
        toast.success('Time off added.');
        setStart('');
        setEnd('');
        setReason('');
        await refresh();
      },
      onError: (err) => setError(explainedMessage(err, 'Failed to add the time off. Please try again.')),
    }),
  );
  const remove = useMutation(
    trpc.practitioners.timeOff.remove.mutationOptions({
      onSuccess: async (res) => {
        toast.success(res.message);
        await refresh();
      },
      onError: (err) => toast.error(explainedMessage(err, 'Failed to remove the time off. Please try again.')),
    }),
  );
  const submit = () => {
    setError(null);
    const parsed = ZAddTimeOffBody.safeParse({ start: toInstant(start), end: toInstant(end), reason });
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? 'Check the fields.');
    add.mutate({ id: practitionerId, timeOff: parsed.data });
  };
  const ids = {
    start: `off-start-${practitionerId}`,
    end: `off-end-${practitionerId}`,
    reason: `off-reason-${practitionerId}`,
  };
  return (
    <div className="grid gap-2">
      {list.isError ? (
        <LoadError error={list.error} onRetry={() => void list.refetch()} />
      ) : list.data?.data.length ? (
        <ul className="grid gap-1 text-sm">
          {list.data.data.map((o) => (
            <li key={o._id} className="flex flex-wrap items-center gap-2">
              <span>
                {formatDateTime(o.start)} – {formatDateTime(o.end)}
                {o.reason ? ` · ${o.reason}` : ''}
              </span>
              <Button
                size="sm"
                variant="ghost"
                aria-label={`Remove time off from ${formatDateTime(o.start)}`}
                disabled={remove.isPending}
                onClick={() => remove.mutate({ id: practitionerId, timeOffId: o._id })}
              >
                Remove
              </Button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-muted-foreground">No time off.</p>
      )}
      <form
        className="grid gap-2 sm:grid-cols-[auto_auto_1fr_auto] sm:items-end"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <div className="grid gap-1">
          <label htmlFor={ids.start} className="text-sm font-medium">
            From
          </label>
          <Input id={ids.start} type="datetime-local" value={start} onChange={(e) => setStart(e.target.value)} />
        </div>
        <div className="grid gap-1">
          <label htmlFor={ids.end} className="text-sm font-medium">
            Until
          </label>
          <Input id={ids.end} type="datetime-local" value={end} onChange={(e) => setEnd(e.target.value)} />
        </div>
        <div className="grid gap-1">
          <label htmlFor={ids.reason} className="text-sm font-medium">
            Reason
          </label>
          <Input id={ids.reason} value={reason} onChange={(e) => setReason(e.target.value)} />
        </div>
        <Button type="submit" variant="outline" disabled={add.isPending}>
          Add time off
        </Button>
      </form>
      {error && (
        <p role="alert" className="text-sm text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}
