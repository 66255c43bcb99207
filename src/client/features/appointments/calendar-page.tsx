import type { Calendar } from '@event-calendar/core';
import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { ChevronLeftIcon, ChevronRightIcon, ListChecksIcon } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { toast } from 'sonner';
import { LoadError } from '@/components/load-error';
import { NativeSelect } from '@/components/native-select';
import { PageHeader } from '@/components/page-header';
import { RequireRole, STAFF_ROLES } from '@/components/require-role';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { explainedMessage } from '@/lib/errors';
import { trpc } from '@/lib/trpc';
import { RescheduleDialog, useStatusChange } from './appointment-actions';
import { ChoiceSelect } from '@/components/native-select';
import { LabelledField } from '@/components/labelled-field';
import { invalidateAppointments, useClock, type Appointment } from './appointment-queries';
import { BookDialog } from './book-dialog';
import { EventCalendar } from './event-calendar';
import { AppointmentDialog } from './calendar-appointment-dialog';
import { calendarEvents, type CalendarMode } from './calendar-events';
import { addDays, dayLabel, instantOf, mondayOf, offsetOf, wallOfCalendarDate } from './zone';

/** Below this width the grid is unreadable: the day is a list instead (docs/appointments.md#screens). */
function useNarrow() {
  const query = '(max-width: 639px)';
  const [narrow, setNarrow] = useState(() => window.matchMedia(query).matches);
  useEffect(() => {
    const m = window.matchMedia(query);
    const on = () => setNarrow(m.matches);
    m.addEventListener('change', on);
    return () => m.removeEventListener('change', on);
  }, []);
  return narrow;
}

export function CalendarPage() {
  return (
    <RequireRole roles={STAFF_ROLES}>
      <CalendarScreen />
    </RequireRole>
  );
}

function CalendarScreen() {
  const clock = useClock();
  const branches = useQuery(
    trpc.branches.list.queryOptions({ page: 1, pageSize: 200, sortBy: 'name', sortDir: 'asc' }),
  );
  if (clock.isError) return <LoadError error={clock.error} onRetry={() => void clock.refetch()} />;
  if (branches.isError) return <LoadError error={branches.error} onRetry={() => void branches.refetch()} />;
  if (clock.isPending || branches.isPending) return <Skeleton className="h-96 w-full" />;
  return <CalendarView timeZone={clock.data.timeZone} today={clock.data.today} branches={branches.data.items} />;
}

function CalendarView({
  timeZone,
  today,
  branches,
}: {
  timeZone: string;
  today: string;
  branches: Array<{ _id: string; name: string }>;
}) {
  const queryClient = useQueryClient();
  const narrow = useNarrow();
  const [branchId, setBranchId] = useState(branches[0]?._id ?? '');
  const [day, setDay] = useState(today);
  const [mode, setMode] = useState<CalendarMode>('practitioners');
  const [weekOf, setWeekOf] = useState('');
  const [booking, setBooking] = useState<{ start: string; practitionerId?: string; roomId?: string } | null>(null);
  const [opened, setOpened] = useState<Appointment | null>(null);
  const [moving, setMoving] = useState<Appointment | null>(null);
  const status = useStatusChange(() => setOpened(null));

  const from = mode === 'week' ? mondayOf(day) : day;
  const to = mode === 'week' ? addDays(from, 6) : day;
  const practitioners = useQuery({
    ...trpc.practitioners.list.queryOptions({ branchId, active: true }),
    enabled: !!branchId,
  });
  const team = useMemo(() => practitioners.data?.data ?? [], [practitioners.data]);
  const weekPractitioner = team.find((p) => p._id === weekOf) ?? team[0];
  const shown = mode === 'week' ? (weekPractitioner ? [weekPractitioner] : []) : team;
  const rooms = useQuery({ ...trpc.rooms.list.queryOptions({ branchId }), enabled: !!branchId });
  const list = useQuery({
    ...trpc.appointments.list.queryOptions({
      from,
      to,
      branchId,
      practitionerId: mode === 'week' ? weekPractitioner?._id : undefined,
    }),
    enabled: !!branchId && (mode !== 'week' || !!weekPractitioner),
  });
  const closures = useQuery({
    ...trpc.practitioners.closures.list.queryOptions({ branchId, range: { from, to } }),
    enabled: !!branchId,
  });
  const classes = useQuery({
    ...trpc.classSessions.inBranch.queryOptions({ branchId, from, to }),
    enabled: !!branchId,
  });
  const plans = useQueries({
    queries: shown.map((p) => ({ ...trpc.practitioners.workingPlan.queryOptions({ id: p._id, branchId }) })),
  });
  const timeOff = useQueries({
    queries: shown.map((p) => ({
      ...trpc.practitioners.timeOff.list.queryOptions({ id: p._id, range: { from, to } }),
    })),
  });

  const reschedule = useMutation(trpc.appointments.reschedule.mutationOptions());
  const appointments = useMemo(() => (list.data?.data ?? []).filter((a) => a.status !== 'cancelled'), [list.data]);
  const byId = useMemo(() => new Map(appointments.map((a) => [a._id, a])), [appointments]);

  const planData = plans.map((q) => q.data);
  const offData = timeOff.map((q) => q.data);
  // Rebuilt on each render (a query answered, a control changed): the calendar gets a new list only then.
  const events = calendarEvents({
    timeZone,
    from,
    to,
    mode,
    closures: closures.data?.data ?? [],
    plans: planData,
    timeOff: offData,
    rooms: rooms.data?.data ?? [],
    shown,
    appointments,
    classes: classes.data?.data ?? [],
    practitionerOfUser: new Map(team.map((p) => [p.user._id, p._id])),
  });

  const resources = useMemo(
    () =>
      mode === 'rooms'
        ? (rooms.data?.data ?? []).map((r) => ({ id: r._id, title: r.name }))
        : team.map((p) => ({ id: p._id, title: p.user.fullName, eventBackgroundColor: p.color })),
    [mode, rooms.data, team],
  );

  // The hours drawn: the team's earliest start to latest end, 07:00–20:00 when nobody has a plan.
  const bounds = (() => {
    let min = 24 * 60;
    let max = 0;
    for (const plan of planData)
      for (const periods of Object.values(plan?.days ?? {}))
        for (const p of periods) {
          const [sh, sm] = p.start.split(':').map(Number) as [number, number];
          const [eh, em] = p.end.split(':').map(Number) as [number, number];
          min = Math.min(min, sh * 60 + sm);
          max = Math.max(max, eh * 60 + em);
        }
    if (min >= max) return { min: '07:00', max: '20:00' };
    const hh = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:00`;
    return { min: hh(Math.max(0, min - 60)), max: hh(Math.min(24 * 60, max + 119)) };
  })();

  const view = narrow
    ? mode === 'week'
      ? 'listWeek'
      : 'listDay'
    : mode === 'week'
      ? 'timeGridWeek'
      : 'resourceTimeGridDay';
  const options: Calendar.Options = {
    view,
    date: day,
    timeZone: offsetOf(timeZone, new Date(instantOf(timeZone, day, '12:00'))),
    headerToolbar: { start: '', center: '', end: '' },
    resources,
    events,
    // The page scrolls, not a box inside it: a scrolling region would need its own keyboard focus.
    height: 'auto',
    slotMinTime: bounds.min,
    slotMaxTime: bounds.max,
    slotDuration: '00:15',
    scrollTime: bounds.min,
    nowIndicator: true,
    allDaySlot: false,
    editable: true,
    eventDurationEditable: false,
    selectable: false,
    firstDay: 1,
    dayHeaderFormat: { weekday: 'short', day: 'numeric', month: 'short' },
    slotLabelFormat: { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' },
    eventTimeFormat: { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' },
    noEventsContent: 'No appointments',
    dateClick: (info) => {
      if (!branchId || info.allDay) return;
      const w = wallOfCalendarDate(info.date);
      const start = instantOf(timeZone, w.day, w.time);
      const column = info.resource?.id ? String(info.resource.id) : undefined;
      setBooking({
        start,
        practitionerId: mode === 'week' ? weekPractitioner?._id : mode === 'practitioners' ? column : undefined,
        roomId: mode === 'rooms' ? column : undefined,
      });
    },
    eventClick: (info) => {
      const a = byId.get(String(info.event.id));
      if (a) setOpened(a);
    },
    // The library draws appointments as plain elements; this makes each one reachable with Tab and
    // opened with Enter or Space, like the click does (the keyboard path to its Actions menu).
    eventDidMount: (info) => {
      const a = byId.get(String(info.event.id));
      if (!a || info.event.display === 'background') return;
      info.el.tabIndex = 0;
      // Its name is its visible text (time, customer, treatment): no aria-label that could differ.
      info.el.setAttribute('role', 'button');
      info.el.addEventListener('keydown', (e: KeyboardEvent) => {
        if (e.key !== 'Enter' && e.key !== ' ') return;
        e.preventDefault();
        setOpened(a);
      });
    },
    eventDrop: (info) => {
      const a = byId.get(String(info.event.id));
      if (!a) return info.revert();
      const w = wallOfCalendarDate(info.event.start);
      const column = info.newResource ? String(info.newResource.id) : undefined;
      reschedule.mutate(
        {
          id: a._id,
          start: instantOf(timeZone, w.day, w.time),
          practitionerId: mode !== 'rooms' ? column : undefined,
          roomId: mode === 'rooms' ? column : undefined,
        },
        {
          onSuccess: () => {
            toast.success('Appointment rescheduled.');
            void invalidateAppointments(queryClient);
          },
          // A refusal (409 names the clash) puts the appointment back where it was.
          onError: (err) => {
            info.revert();
            toast.error(explainedMessage(err, 'Failed to reschedule the appointment'));
          },
        },
      );
    },
  };

  const step = mode === 'week' ? 7 : 1;
  return (
    <div className="grid gap-4">
      <PageHeader
        title="Calendar"
        description={mode === 'week' ? `Week of ${dayLabel(from)}` : dayLabel(day)}
        actions={
          <Button asChild variant="outline">
            <Link to="/calendar/today">
              <ListChecksIcon /> Today
            </Link>
          </Button>
        }
      />
      <div className="flex flex-wrap items-end gap-3">
        <LabelledField id="calendar-branch" label="Branch" className="w-full sm:w-56">
          <ChoiceSelect
            id="calendar-branch"
            value={branchId}
            onChange={setBranchId}
            choices={branches.map((b) => ({ value: b._id, label: b.name }))}
          />
        </LabelledField>
        <LabelledField id="calendar-mode" label="Show" className="w-full sm:w-48">
          <NativeSelect id="calendar-mode" value={mode} onChange={(e) => setMode(e.target.value as CalendarMode)}>
            <option value="practitioners">Day by practitioner</option>
            <option value="rooms">Day by room</option>
            <option value="week">Week of a practitioner</option>
          </NativeSelect>
        </LabelledField>
        {mode === 'week' && (
          <LabelledField id="calendar-practitioner" label="Practitioner" className="w-full sm:w-56">
            <ChoiceSelect
              id="calendar-practitioner"
              value={weekPractitioner?._id ?? ''}
              onChange={setWeekOf}
              choices={team.map((p) => ({ value: p._id, label: p.user.fullName }))}
            />
          </LabelledField>
        )}
        <LabelledField id="calendar-day" label="Day">
          <div className="flex gap-1">
            <Button
              variant="outline"
              size="icon"
              aria-label={mode === 'week' ? 'Previous week' : 'Previous day'}
              onClick={() => setDay(addDays(day, -step))}
            >
              <ChevronLeftIcon />
            </Button>
            <Input
              id="calendar-day"
              type="date"
              className="w-40"
              value={day}
              onChange={(e) => e.target.value && setDay(e.target.value)}
            />
            <Button
              variant="outline"
              size="icon"
              aria-label={mode === 'week' ? 'Next week' : 'Next day'}
              onClick={() => setDay(addDays(day, step))}
            >
              <ChevronRightIcon />
            </Button>
            <Button variant="outline" onClick={() => setDay(today)}>
              Today
            </Button>
          </div>
        </LabelledField>
      </div>
      {!branches.length ? (
        <p className="text-sm text-muted-foreground">Add a branch first.</p>
      ) : list.isError ? (
        <LoadError error={list.error} onRetry={() => void list.refetch()} />
      ) : (
        <>
          {practitioners.isSuccess && !team.length && (
            <p className="text-sm text-muted-foreground">
              Nobody works at this branch yet: add practitioners in Settings.
            </p>
          )}
          <p className="text-xs text-muted-foreground">
            {narrow
              ? 'Tap an appointment for its status and Reschedule.'
              : 'Click a free time to book; drag an appointment to move it, or click it for its status and Reschedule. Times are in ' +
                timeZone +
                '.'}
          </p>
          <EventCalendar options={options} className="calendar-host" />
        </>
      )}
      {booking && (
        <BookDialog
          start={booking.start}
          branchId={branchId}
          practitionerId={booking.practitionerId}
          roomId={booking.roomId}
          timeZone={timeZone}
          onClose={() => setBooking(null)}
        />
      )}
      {opened && (
        <AppointmentDialog
          appointment={opened}
          timeZone={timeZone}
          onClose={() => setOpened(null)}
          onStatus={status.ask}
          onReschedule={(a) => {
            setOpened(null);
            setMoving(a);
          }}
        />
      )}
      {moving && <RescheduleDialog appointment={moving} timeZone={timeZone} onClose={() => setMoving(null)} />}
      {status.dialog}
    </div>
  );
}
