import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Input } from '@/components/ui/input';
import { trpc } from '@/lib/trpc';
import { formatDateTime } from '@shared/format';
import { ZAddTimeOffBody } from '@shared/schemas/practitioners';
import { AddForm, afterAdd, afterRemove, EntryList, FieldBox } from './entry-list';

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
    trpc.practitioners.timeOff.add.mutationOptions(
      afterAdd({
        added: 'Time off added.',
        failed: 'Failed to add the time off. Please try again.',
        reset: () => {
          setStart('');
          setEnd('');
          setReason('');
        },
        refresh,
        setError,
      }),
    ),
  );
  const remove = useMutation(
    trpc.practitioners.timeOff.remove.mutationOptions(
      afterRemove({ failed: 'Failed to remove the time off. Please try again.', refresh }),
    ),
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
      <EntryList
        list={list}
        when={(o) => `${formatDateTime(o.start)} – ${formatDateTime(o.end)}`}
        removeLabel={(o) => `Remove time off from ${formatDateTime(o.start)}`}
        removing={remove.isPending}
        onRemove={(o) => remove.mutate({ id: practitionerId, timeOffId: o._id })}
        empty="No time off."
      />
      <AddForm
        className="grid gap-2 sm:grid-cols-[auto_auto_1fr_auto] sm:items-end"
        submitLabel="Add time off"
        submitVariant="outline"
        disabled={add.isPending}
        error={error}
        onSubmit={submit}
      >
        <FieldBox id={ids.start} label="From">
          <Input id={ids.start} type="datetime-local" value={start} onChange={(e) => setStart(e.target.value)} />
        </FieldBox>
        <FieldBox id={ids.end} label="Until">
          <Input id={ids.end} type="datetime-local" value={end} onChange={(e) => setEnd(e.target.value)} />
        </FieldBox>
        <FieldBox id={ids.reason} label="Reason">
          <Input id={ids.reason} value={reason} onChange={(e) => setReason(e.target.value)} />
        </FieldBox>
      </AddForm>
    </div>
  );
}
