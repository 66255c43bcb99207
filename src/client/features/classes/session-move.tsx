import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { useFormMutation } from '@/lib/use-form-mutation';
import { trpc, type RouterOutputs } from '@/lib/trpc';
import { FormDialog } from '@/components/form-dialog';
import { ChoiceSelect } from '@/components/native-select';
import { LabelledField, LabelledInput } from '@/components/labelled-field';
import { dayLabel, instantOf, wallOf } from '../appointments/zone';

type SessionRow = RouterOutputs['batches']['sessions']['data'][number];

/**
 * "Move" on a session to come (docs/classes.md#sessions): a new date, start, end and room,
 * prefilled with the session's own, read and written on the TIME_ZONE clock. The server checks
 * the move as it checks a new session; its refusal (a room or instructor clash) shows in the dialog.
 */
export function MoveSession({
  session,
  branchId,
  timeZone,
}: {
  session: SessionRow;
  branchId: string;
  timeZone: string;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="outline" size="sm" onClick={() => setOpen(true)}>
        Move
      </Button>
      {open && (
        <MoveSessionDialog session={session} branchId={branchId} timeZone={timeZone} onClose={() => setOpen(false)} />
      )}
    </>
  );
}

function MoveSessionDialog({
  session: s,
  branchId,
  timeZone,
  onClose,
}: {
  session: SessionRow;
  branchId: string;
  timeZone: string;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const from = wallOf(timeZone, s.start);
  const until = wallOf(timeZone, s.end);
  const [day, setDay] = useState(from.day);
  const [start, setStart] = useState(from.time);
  const [end, setEnd] = useState(until.time);
  const [roomId, setRoomId] = useState(s.room?._id ?? '');
  const [error, setError] = useState('');
  const rooms = useQuery(trpc.rooms.list.queryOptions({ branchId }));
  const move = useFormMutation({
    mutationOptions: trpc.classSessions.move.mutationOptions,
    success: 'Session moved.',
    failure: 'The session was not moved.',
    after: async () => {
      onClose();
      await queryClient.invalidateQueries({ queryKey: trpc.batches.pathKey() });
    },
    onError: setError,
  });
  const submit = () => {
    setError('');
    const time = /^\d{2}:\d{2}$/;
    if (!day || !time.test(start) || !time.test(end)) return setError('Give a date, a start and an end.');
    const newStart = instantOf(timeZone, day, start);
    const newEnd = instantOf(timeZone, day, end);
    const sameRoom = roomId === (s.room?._id ?? '');
    const sameTime = newStart === new Date(s.start).toISOString() && newEnd === new Date(s.end).toISOString();
    if (sameRoom && sameTime) return setError('Change the date, a time or the room.');
    move.mutate({
      id: s._id,
      ...(sameTime ? {} : { start: newStart, end: newEnd }),
      ...(sameRoom ? {} : { roomId: roomId || null }),
    });
  };
  return (
    <FormDialog
      title="Move session"
      description={`${s.batch.name}: now ${dayLabel(from.day)}, ${from.time}–${until.time}${s.room ? ` in ${s.room.name}` : ''}.`}
      error={error}
      pending={move.isPending}
      submitLabel="Move session"
      closeLabel="Cancel"
      onClose={onClose}
      onSubmit={submit}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <LabelledInput
          id="move-day"
          label="Date"
          className="sm:col-span-2"
          type="date"
          value={day}
          onValueChange={setDay}
        />
        <LabelledInput id="move-start" label="Start" type="time" step={60} value={start} onValueChange={setStart} />
        <LabelledInput id="move-end" label="End" type="time" step={60} value={end} onValueChange={setEnd} />
        <LabelledField id="move-room" label="Room" className="sm:col-span-2">
          <ChoiceSelect
            id="move-room"
            value={roomId}
            onChange={setRoomId}
            empty="No room"
            choices={(rooms.data?.data ?? []).map((r) => ({ value: r._id, label: r.name }))}
          />
        </LabelledField>
      </div>
    </FormDialog>
  );
}
