import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { DatePicker } from '@/components/date-picker';
import { LoadError } from '@/components/load-error';
import { NativeSelect } from '@/components/native-select';
import { TitledCard } from '@/components/titled-card';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { explainedMessage } from '@/lib/errors';
import { trpc } from '@/lib/trpc';
import { formatDay } from '@shared/format';
import { ZAddClosureBody, ZCreateRoomInput, ZUpdateRoomBody, type TRoom } from '@shared/schemas/practitioners';

/** The branch a card shows, chosen from every branch; the first one until another is chosen. */
function useBranchChoice(id: string) {
  const branches = useQuery(trpc.branches.options.queryOptions());
  const [chosen, setChosen] = useState('');
  const branchId = chosen || branches.data?.[0]?._id || '';
  const select = (
    <div className="grid gap-1 sm:max-w-xs">
      <label htmlFor={id} className="text-sm font-medium">
        Branch
      </label>
      <NativeSelect id={id} value={branchId} onChange={(e) => setChosen(e.target.value)}>
        {(branches.data ?? []).map((b) => (
          <option key={b._id} value={b._id}>
            {b.name}
          </option>
        ))}
      </NativeSelect>
    </div>
  );
  return { branchId, select, none: branches.isSuccess && branches.data.length === 0 };
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
      <Input
        aria-label={`Capacity of ${room.name}`}
        type="number"
        min={1}
        max={100}
        className="w-20"
        value={capacity}
        onChange={(e) => setCapacity(e.target.value)}
      />
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
    trpc.rooms.create.mutationOptions({
      onSuccess: async () => {
        toast.success('Room added.');
        setName('');
        setCapacity('1');
        await queryClient.invalidateQueries(trpc.rooms.pathFilter());
      },
      onError: (err) => setError(explainedMessage(err, 'Failed to add the room. Please try again.')),
    }),
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
      <form
        className="flex flex-wrap items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <div className="grid flex-1 gap-1">
          <label htmlFor="new-room-name" className="text-sm font-medium">
            New room
          </label>
          <Input id="new-room-name" value={name} onChange={(e) => setName(e.target.value)} />
        </div>
        <div className="grid gap-1">
          <label htmlFor="new-room-capacity" className="text-sm font-medium">
            Capacity
          </label>
          <Input
            id="new-room-capacity"
            type="number"
            min={1}
            max={100}
            className="w-20"
            value={capacity}
            onChange={(e) => setCapacity(e.target.value)}
          />
        </div>
        <Button type="submit" disabled={create.isPending || !branchId}>
          Add room
        </Button>
      </form>
      {error && (
        <p role="alert" className="text-sm text-destructive">
          {error}
        </p>
      )}
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
    trpc.practitioners.closures.add.mutationOptions({
      onSuccess: async () => {
        toast.success('Closure added.');
        setDate('');
        setReason('');
        await refresh();
      },
      onError: (err) => setError(explainedMessage(err, 'Failed to add the closure. Please try again.')),
    }),
  );
  const remove = useMutation(
    trpc.practitioners.closures.remove.mutationOptions({
      onSuccess: async (res) => {
        toast.success(res.message);
        await refresh();
      },
      onError: (err) => toast.error(explainedMessage(err, 'Failed to remove the closure. Please try again.')),
    }),
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
      {list.isError ? (
        <LoadError error={list.error} onRetry={() => void list.refetch()} />
      ) : list.data?.data.length ? (
        <ul className="grid gap-1 text-sm">
          {list.data.data.map((c) => (
            <li key={c._id} className="flex flex-wrap items-center gap-2">
              <span>
                {formatDay(c.date)}
                {c.reason ? ` · ${c.reason}` : ''}
              </span>
              <Button
                size="sm"
                variant="ghost"
                aria-label={`Remove the closure on ${formatDay(c.date)}`}
                disabled={remove.isPending}
                onClick={() => remove.mutate({ branchId, closureId: c._id })}
              >
                Remove
              </Button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-muted-foreground">No closures at this branch.</p>
      )}
      <form
        className="flex flex-wrap items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <div className="grid gap-1">
          <span className="text-sm font-medium">Day</span>
          <DatePicker label="Closed on" value={date} onChange={setDate} />
        </div>
        <div className="grid flex-1 gap-1">
          <label htmlFor="closure-reason" className="text-sm font-medium">
            Reason
          </label>
          <Input id="closure-reason" value={reason} onChange={(e) => setReason(e.target.value)} />
        </div>
        <Button type="submit" disabled={add.isPending || !branchId}>
          Add closure
        </Button>
      </form>
      {error && (
        <p role="alert" className="text-sm text-destructive">
          {error}
        </p>
      )}
    </TitledCard>
  );
}
