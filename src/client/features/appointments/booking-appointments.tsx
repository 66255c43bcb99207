import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CalendarPlusIcon } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { QueryView } from '@/components/query-view';
import { TitledCard } from '@/components/titled-card';
import { Button } from '@/components/ui/button';
import { errorCode, explainedMessage } from '@/lib/errors';
import { trpc } from '@/lib/trpc';
import { WEEKDAYS, type Weekday } from '@shared/schemas/appointments';
import { FormDialog } from '@/components/form-dialog';
import { ChoiceSelect } from '@/components/native-select';
import { LabelledField, LabelledInput } from '@/components/labelled-field';
import { RoomSelect } from './room-select';
import { AppointmentMenu, RescheduleDialog, StatusBadge, useStatusChange } from './appointment-actions';
import { invalidateAppointments, timeIn, useClock, type Appointment } from './appointment-queries';
import { addDays, dayLabel, instantOf, wallOf } from './zone';

/** The list call's longest range; the card reads the booking's appointments around today. */
const SPAN_DAYS = 62;

/**
 * Booking details' Appointments card (docs/appointments.md#screens): upcoming and past sessions
 * with their status, each with its menu, and Schedule sessions (a weekly series).
 */
export function BookingAppointments({
  bookingId,
  editable,
  sessionsLeft,
}: {
  bookingId: string;
  editable: boolean;
  sessionsLeft: number;
}) {
  const clock = useClock();
  const today = clock.data?.today;
  const [scheduling, setScheduling] = useState(false);
  const [moving, setMoving] = useState<Appointment | null>(null);
  const status = useStatusChange();
  // One call reaches at most 62 days: the past month and the coming one, enough for a weekly course.
  const from = today ? addDays(today, -(SPAN_DAYS / 2)) : '';
  const to = today ? addDays(today, SPAN_DAYS / 2) : '';
  const list = useQuery({
    ...trpc.appointments.list.queryOptions({ from, to, bookingId }),
    enabled: !!today,
  });
  const timeZone = clock.data?.timeZone ?? 'UTC';
  // The list's answer time stands for "now": upcoming and past split as of the last read.
  const now = list.dataUpdatedAt;
  const all = list.data?.data ?? [];
  const upcoming = all.filter((a) => Date.parse(a.end) >= now && a.status !== 'cancelled' && a.status !== 'no_show');
  const past = all.filter((a) => !upcoming.includes(a)).reverse();

  const row = (a: Appointment) => (
    <li
      key={a._id}
      className="flex flex-wrap items-center justify-between gap-2 py-2"
      data-testid="booking-appointment"
    >
      <div className="text-sm">
        <div className="font-medium">
          {dayLabel(wallOf(timeZone, a.start).day)}, {timeIn(timeZone, a.start)}–{timeIn(timeZone, a.end)}
        </div>
        <div className="text-muted-foreground">
          {a.practitioner.fullName}
          {a.room ? `, ${a.room.name}` : ''} · {a.branch.name}
          {a.sessionNumber ? ` · session ${a.sessionNumber}` : ''}
          {a.statusReason ? ` · ${a.statusReason}` : ''}
        </div>
      </div>
      <div className="flex items-center gap-2">
        <StatusBadge status={a.status} />
        <AppointmentMenu appointment={a} onStatus={status.ask} onReschedule={setMoving} />
      </div>
    </li>
  );

  const section = (title: 'Upcoming' | 'Past', items: Appointment[]) => (
    <section aria-label={`${title} appointments`}>
      <h3 className="text-sm font-medium">{title}</h3>
      {items.length ? (
        <ul className="divide-y">{items.map(row)}</ul>
      ) : (
        <p className="text-sm text-muted-foreground">{`No ${title.toLowerCase()} appointments.`}</p>
      )}
    </section>
  );

  return (
    <TitledCard
      title="Appointments"
      actions={
        editable && (
          <Button size="sm" variant="outline" onClick={() => setScheduling(true)} disabled={sessionsLeft <= 0}>
            <CalendarPlusIcon /> Schedule sessions
          </Button>
        )
      }
      contentClassName="grid gap-4"
    >
      <QueryView query={list} placeholder="h-16 w-full">
        {() => (
          <>
            {section('Upcoming', upcoming)}
            {section('Past', past)}
          </>
        )}
      </QueryView>
      {scheduling && today && (
        <SeriesDialog bookingId={bookingId} timeZone={timeZone} today={today} onClose={() => setScheduling(false)} />
      )}
      {moving && <RescheduleDialog appointment={moving} timeZone={timeZone} onClose={() => setMoving(null)} />}
      {status.dialog}
    </TitledCard>
  );
}

type SeriesAnswer = { created: Appointment[]; conflicts: Array<{ start: string; message: string }> };

/** Schedule sessions: a weekly series, with what was booked and each date that could not be. */
function SeriesDialog({
  bookingId,
  timeZone,
  today,
  onClose,
}: {
  bookingId: string;
  timeZone: string;
  today: string;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const branches = useQuery(
    trpc.branches.list.queryOptions({ page: 1, pageSize: 200, sortBy: 'name', sortDir: 'asc' }),
  );
  const [branchId, setBranchId] = useState('');
  const branch = branchId || branches.data?.items[0]?._id || '';
  const practitioners = useQuery({
    ...trpc.practitioners.list.queryOptions({ branchId: branch, active: true }),
    enabled: !!branch,
  });
  const [practitionerId, setPractitionerId] = useState('');
  const practitioner = practitionerId || practitioners.data?.data[0]?._id || '';
  const [roomId, setRoomId] = useState('');
  const [day, setDay] = useState(addDays(today, 1));
  const [time, setTime] = useState('10:00');
  const [everyWeeks, setEveryWeeks] = useState('1');
  const [weekdays, setWeekdays] = useState<Weekday[]>([]);
  const [count, setCount] = useState('4');
  const [allOrNothing, setAllOrNothing] = useState(false);
  const [error, setError] = useState('');
  const [answer, setAnswer] = useState<SeriesAnswer | null>(null);

  const create = useMutation(
    trpc.appointments.createSeries.mutationOptions({
      onSuccess: async (a) => {
        setAnswer(a);
        toast.success(`${a.created.length} appointment${a.created.length === 1 ? '' : 's'} booked.`);
        await invalidateAppointments(queryClient);
      },
      onError: (err) => {
        // All-or-nothing refused: the 409 names every conflicting date in its details.
        const details = (err as { data?: { details?: { conflicts?: SeriesAnswer['conflicts'] } } }).data?.details;
        if (errorCode(err) === 'CONFLICT' && details?.conflicts)
          setAnswer({ created: [], conflicts: details.conflicts });
        setError(explainedMessage(err, 'Failed to schedule the sessions'));
      },
    }),
  );

  const submit = () => {
    setError('');
    setAnswer(null);
    if (!branch || !practitioner) return setError('Choose a branch and a practitioner.');
    create.mutate({
      bookingId,
      branchId: branch,
      practitionerId: practitioner,
      roomId: roomId || undefined,
      start: instantOf(timeZone, day, time),
      everyWeeks: Number(everyWeeks),
      weekdays: weekdays.length ? weekdays : undefined,
      count: Number(count),
      allOrNothing,
    });
  };

  return (
    <FormDialog
      title="Schedule sessions"
      description="A weekly series from the first start. A date that cannot be booked is skipped and named below."
      className="max-h-[90vh] overflow-y-auto"
      error={error}
      pending={create.isPending}
      submitLabel="Schedule"
      onClose={onClose}
      onSubmit={submit}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <LabelledField id="series-branch" label="Branch">
          <ChoiceSelect
            id="series-branch"
            value={branch}
            onChange={(id) => {
              setBranchId(id);
              setPractitionerId('');
              setRoomId('');
            }}
            choices={(branches.data?.items ?? []).map((b) => ({ value: b._id, label: b.name }))}
          />
        </LabelledField>
        <LabelledField id="series-practitioner" label="Practitioner">
          <ChoiceSelect
            id="series-practitioner"
            value={practitioner}
            onChange={setPractitionerId}
            empty={practitioners.data?.data.length ? undefined : 'Nobody works here'}
            choices={(practitioners.data?.data ?? []).map((p) => ({ value: p._id, label: p.user.fullName }))}
          />
        </LabelledField>
        <LabelledField id="series-room" label="Room">
          <RoomSelect id="series-room" branchId={branch} value={roomId} onChange={setRoomId} />
        </LabelledField>
        <div className="grid grid-cols-2 gap-2">
          <LabelledInput id="series-day" label="First day" type="date" value={day} onValueChange={setDay} />
          <LabelledInput id="series-time" label="Time" type="time" value={time} onValueChange={setTime} />
        </div>
        <LabelledField id="series-every" label="Every">
          <ChoiceSelect
            id="series-every"
            value={everyWeeks}
            onChange={setEveryWeeks}
            choices={[1, 2, 3, 4].map((n) => ({ value: String(n), label: n === 1 ? 'week' : `${n} weeks` }))}
          />
        </LabelledField>
        <LabelledInput
          id="series-count"
          label="Sessions"
          type="number"
          min={1}
          max={100}
          value={count}
          onValueChange={setCount}
        />
      </div>
      <fieldset className="space-y-1">
        <legend className="text-sm font-medium">On (the first day&apos;s weekday when none is ticked)</legend>
        <div className="flex flex-wrap gap-3">
          {WEEKDAYS.map((d) => (
            <label key={d} className="flex items-center gap-1 text-sm capitalize">
              <input
                type="checkbox"
                checked={weekdays.includes(d)}
                onChange={(e) => setWeekdays(e.target.checked ? [...weekdays, d] : weekdays.filter((x) => x !== d))}
              />
              {d.slice(0, 3)}
            </label>
          ))}
        </div>
      </fieldset>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" checked={allOrNothing} onChange={(e) => setAllOrNothing(e.target.checked)} />
        All or nothing: book none if any date cannot be booked
      </label>
      {answer && (
        <div className="space-y-2 text-sm" data-testid="series-result">
          <p className="font-medium">
            {answer.created.length} booked
            {answer.conflicts.length ? `, ${answer.conflicts.length} skipped` : ''}
          </p>
          {answer.created.length > 0 && (
            <ul className="list-disc pl-5">
              {answer.created.map((a) => (
                <li key={a._id}>
                  {dayLabel(wallOf(timeZone, a.start).day)}, {timeIn(timeZone, a.start)}
                </li>
              ))}
            </ul>
          )}
          {answer.conflicts.length > 0 && (
            <ul className="list-disc pl-5 text-destructive" aria-label="Conflicts">
              {answer.conflicts.map((c) => (
                <li key={c.start}>
                  {dayLabel(wallOf(timeZone, c.start).day)}, {timeIn(timeZone, c.start)}: {c.message}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </FormDialog>
  );
}
