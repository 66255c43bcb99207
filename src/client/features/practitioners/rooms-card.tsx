import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { DatePicker } from '@/components/date-picker';
import { LoadError } from '@/components/load-error';
import { TitledCard } from '@/components/titled-card';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { explainedMessage } from '@/lib/errors';
import { trpc } from '@/lib/trpc';
import { formatDay } from '@shared/format';
import { BranchChooser } from './branch-chooser';
import { AddForm, afterAdd, afterRemove, EntryList, FieldBox } from './entry-list';
import { ZAddClosureBody, ZCreateRoomInput, ZUpdateRoomBody, type TRoom } from '@shared/schemas/practitioners';

/** The branch a card shows, chosen from every branch; the first one until another is chosen. */
function useBranchChoice(id: string) {
  const branches = useQuery(trpc.branches.options.queryOptions());
  const [chosen, setChosen] = useState('');
  const branchId = chosen || branches.data?.[0]?._id || '';
  const select = <BranchChooser id={id} value={branchId} onChange={setChosen} branches={branches.data ?? []} />;
  return { branchId, select, none: branches.isSuccess && branches.data.length === 0 };
}

/** How many sessions a room holds at once: 1 to 100. */
function CapacityInput({
  onChange,
  ...input
}: {
  id?: string;
  'aria-label'?: string;
  value: string;
  onChange: (capacity: string) => void;
}) {
  return (
    <Input type="number" min={1} max={100} className="w-20" {...input} onChange={(e) => onChange(e.target.value)} />
  );
}

function RoomRow({ room }: { room: TRoom }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState(room.name);
  const [capacity, setCapacity] = useState(String(room.capacity));
  const refresh = () => queryClient.invalidateQueries(trpc.rooms.pathFilter());
  const fail = (fallback: string) => (err: unknown) => toast.error(explainedMessage(err, fallback));
  const update = useMutation(
    trpc.rooms.update.mutationOptions({
      onSuccess: async () => {
        toast.success('Room saved.');
        await refresh();
      },
      onError: fail('Failed to save the room. Please try again.'),
    }),
  );
  const remove = useMutation(
    trpc.rooms.remove.mutationOptions({
      onSuccess: async (res) => {
        toast.success(res.message);
        await refresh();
      },
      onError: fail('Failed to delete the room. Please try again.'),
    }),
  );
  const save = () => {
    const parsed = ZUpdateRoomBody.safeParse({ name, capacity: Number(capacity) });
    if (!parsed.success) return toast.error(parsed.error.issues[0]?.message ?? 'Check the fields.');
    update.mutate({ id: room._id, ...parsed.data });
  };
  return (
    <li className="flex flex-wrap items-center gap-2">
      <Input aria-label="Room name" className="w-40 flex-1" value={name} onChange={(e) => setName(e.target.value)} />
      <CapacityInput aria-label={`Capacity of ${room.name}`} value={capacity} onChange={setCapacity} />
      <Button size="sm" variant="outline" aria-label={`Save ${room.name}`} onClick={save} disabled={update.isPending}>
        Save
      </Button>
      <Button
        size="sm"
        variant="ghost"
        aria-label={`Delete ${room.name}`}
        onClick={() => remove.mutate({ id: room._id })}
        disabled={remove.isPending}
      >
        Delete
      </Button>
    </li>
  );
}

/** Settings: the rooms of each branch, with how many sessions each holds at once. */
export function RoomsCard() {
  const queryClient = useQueryClient();
  const { branchId, select } = useBranchChoice('rooms-branch');
  const list = useQuery({ ...trpc.rooms.list.queryOptions({ branchId }), enabled: branchId !== '' });
  const [name, setName] = useState('');
  const [capacity, setCapacity] = useState('1');
  const [error, setError] = useState<string | null>(null);
  const create = useMutation(
    trpc.rooms.create.mutationOptions(
      afterAdd({
        added: 'Room added.',
        failed: 'Failed to add the room. Please try again.',
        reset: () => {
          setName('');
          setCapacity('1');
        },
        refresh: () => queryClient.invalidateQueries(trpc.rooms.pathFilter()),
        setError,
      }),
    ),
  );
  const submit = () => {
    setError(null);
    const parsed = ZCreateRoomInput.safeParse({ name, branchId, capacity: Number(capacity) });
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? 'Check the fields.');
    create.mutate(parsed.data);
  };
  return (
    <TitledCard title="Rooms" contentClassName="grid gap-3">
      {select}
      {list.isError ? (
        <LoadError error={list.error} onRetry={() => void list.refetch()} />
      ) : list.isPending && branchId ? (
        <Skeleton className="h-10 w-full" />
      ) : list.data?.data.length ? (
        <ul className="grid gap-2">
          {list.data.data.map((r) => (
            <RoomRow key={`${r._id}-${r.name}-${r.capacity}`} room={r} />
          ))}
        </ul>
      ) : (
        <p className="text-sm text-muted-foreground">No rooms at this branch.</p>
      )}
      <AddForm
        className="flex flex-wrap items-end gap-2"
        submitLabel="Add room"
        disabled={create.isPending || !branchId}
        error={error}
        onSubmit={submit}
      >
        <FieldBox id="new-room-name" label="New room" className="flex-1">
          <Input id="new-room-name" value={name} onChange={(e) => setName(e.target.value)} />
        </FieldBox>
        <FieldBox id="new-room-capacity" label="Capacity">
          <CapacityInput id="new-room-capacity" value={capacity} onChange={setCapacity} />
        </FieldBox>
      </AddForm>
    </TitledCard>
  );
}

/** Settings: the days each branch is closed (holidays); nothing is booked there then. */
export function ClosuresCard() {
  const queryClient = useQueryClient();
  const { branchId, select } = useBranchChoice('closures-branch');
  const list = useQuery({ ...trpc.practitioners.closures.list.queryOptions({ branchId }), enabled: branchId !== '' });
  const [date, setDate] = useState('');
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries(trpc.practitioners.closures.pathFilter());
  const add = useMutation(
    trpc.practitioners.closures.add.mutationOptions(
      afterAdd({
        added: 'Closure added.',
        failed: 'Failed to add the closure. Please try again.',
        reset: () => {
          setDate('');
          setReason('');
        },
        refresh,
        setError,
      }),
    ),
  );
  const remove = useMutation(
    trpc.practitioners.closures.remove.mutationOptions(
      afterRemove({ failed: 'Failed to remove the closure. Please try again.', refresh }),
    ),
  );
  const submit = () => {
    setError(null);
    const parsed = ZAddClosureBody.safeParse({ date, reason });
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? 'Check the fields.');
    add.mutate({ branchId, closure: parsed.data });
  };
  return (
    <TitledCard title="Branch closures" contentClassName="grid gap-3">
      {select}
      <EntryList
        list={list}
        when={(c) => formatDay(c.date)}
        removeLabel={(c) => `Remove the closure on ${formatDay(c.date)}`}
        removing={remove.isPending}
        onRemove={(c) => remove.mutate({ branchId, closureId: c._id })}
        empty="No closures at this branch."
      />
      <AddForm
        className="flex flex-wrap items-end gap-2"
        submitLabel="Add closure"
        disabled={add.isPending || !branchId}
        error={error}
        onSubmit={submit}
      >
        <FieldBox label="Day">
          <DatePicker label="Closed on" value={date} onChange={setDate} />
        </FieldBox>
        <FieldBox id="closure-reason" label="Reason" className="flex-1">
          <Input id="closure-reason" value={reason} onChange={(e) => setReason(e.target.value)} />
        </FieldBox>
      </AddForm>
    </TitledCard>
  );
}
