import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CalendarClockIcon, ChevronDownIcon } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { Textarea } from '@/components/ui/textarea';
import { explainedMessage } from '@/lib/errors';
import { useFormMutation } from '@/lib/use-form-mutation';
import { trpc } from '@/lib/trpc';
import { APPOINTMENT_MOVES, type AppointmentStatus } from '@shared/schemas/appointments';
import {
  STATUS_ACTIONS,
  STATUS_LABELS,
  invalidateAppointments,
  isLive,
  timeIn,
  type Appointment,
} from './appointment-queries';
import { FormDialog } from '@/components/form-dialog';
import { ChoiceSelect } from '@/components/native-select';
import { LabelledField, LabelledInput } from '@/components/labelled-field';
import { RoomSelect } from './room-select';
import { dayLabel, instantOf, wallOf } from './zone';

const STATUS_VARIANT: Record<AppointmentStatus, 'default' | 'secondary' | 'destructive' | 'success' | 'warning'> = {
  scheduled: 'secondary',
  confirmed: 'default',
  arrived: 'warning',
  completed: 'success',
  cancelled: 'destructive',
  no_show: 'destructive',
};

export function StatusBadge({ status }: { status: AppointmentStatus }) {
  return <Badge variant={STATUS_VARIANT[status]}>{STATUS_LABELS[status]}</Badge>;
}

/**
 * Moving an appointment to a status: one call, the server's refusal as a toast. Cancelling asks
 * for the reason first (the server requires one), so `ask` opens that dialog instead.
 */
export function useStatusChange(onDone?: () => void) {
  const queryClient = useQueryClient();
  const [cancelling, setCancelling] = useState<Appointment | null>(null);
  const mutation = useMutation(
    trpc.appointments.setStatus.mutationOptions({
      onSuccess: async (a) => {
        toast.success(`${STATUS_LABELS[a.status]}: ${a.customer?.username ?? 'appointment'}.`);
        setCancelling(null);
        onDone?.();
        await invalidateAppointments(queryClient);
      },
      onError: (err) => toast.error(explainedMessage(err, 'Failed to change the status')),
    }),
  );
  const ask = (a: Appointment, status: AppointmentStatus) => {
    if (status === 'cancelled') setCancelling(a);
    else mutation.mutate({ id: a._id, status });
  };
  const dialog = cancelling && (
    <CancelDialog
      appointment={cancelling}
      pending={mutation.isPending}
      onClose={() => setCancelling(null)}
      onCancel={(reason) => mutation.mutate({ id: cancelling._id, status: 'cancelled', reason })}
    />
  );
  return { ask, dialog, pending: mutation.isPending };
}

function CancelDialog({
  appointment,
  pending,
  onClose,
  onCancel,
}: {
  appointment: Appointment;
  pending: boolean;
  onClose: () => void;
  onCancel: (reason: string) => void;
}) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState('');
  return (
    <FormDialog
      title="Cancel appointment"
      description={
        <>
          {appointment.customer?.username ?? 'The customer'}, {appointment.treatment.treatmentName}. The appointment is
          kept with its reason and its time is freed.
        </>
      }
      pending={pending}
      submitLabel="Cancel appointment"
      submitVariant="destructive"
      closeLabel="Keep it"
      onClose={onClose}
      onSubmit={() => {
        if (!reason.trim()) setError('Give a reason for cancelling the appointment.');
        else onCancel(reason.trim());
      }}
    >
      <LabelledField id="cancel-reason" label="Reason">
        <Textarea
          id="cancel-reason"
          value={reason}
          aria-invalid={!!error}
          aria-describedby={error ? 'cancel-reason-error' : undefined}
          onChange={(e) => {
            setReason(e.target.value);
            setError('');
          }}
        />
        {error && (
          <p id="cancel-reason-error" className="text-sm text-destructive">
            {error}
          </p>
        )}
      </LabelledField>
    </FormDialog>
  );
}

/** The appointment's menu: the status moves the server allows from where it is, and Reschedule. */
export function AppointmentMenu({
  appointment: a,
  onStatus,
  onReschedule,
}: {
  appointment: Appointment;
  onStatus: (a: Appointment, s: AppointmentStatus) => void;
  onReschedule?: (a: Appointment) => void;
}) {
  const moves = APPOINTMENT_MOVES[a.status];
  if (!moves.length && !onReschedule) return null;
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button size="sm" variant="outline" aria-label={`Actions for ${a.customer?.username ?? 'appointment'}`}>
          Actions <ChevronDownIcon />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        {moves.map((s) => (
          <DropdownMenuItem
            key={s}
            variant={s === 'cancelled' || s === 'no_show' ? 'destructive' : 'default'}
            onSelect={() => onStatus(a, s)}
          >
            {STATUS_ACTIONS[s]}
          </DropdownMenuItem>
        ))}
        {onReschedule && isLive(a.status) && (
          <DropdownMenuItem onSelect={() => onReschedule(a)}>
            <CalendarClockIcon /> Reschedule…
          </DropdownMenuItem>
        )}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

/**
 * The keyboard and phone alternative to dragging (docs/appointments.md#reschedule): a new day,
 * time, practitioner and room; the server checks it as it checks a new appointment.
 */
export function RescheduleDialog({
  appointment: a,
  timeZone,
  onClose,
}: {
  appointment: Appointment;
  timeZone: string;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const wall = wallOf(timeZone, a.start);
  const [day, setDay] = useState(wall.day);
  const [time, setTime] = useState(wall.time);
  const [practitionerId, setPractitionerId] = useState(a.practitioner._id);
  const [roomId, setRoomId] = useState(a.room?._id ?? '');
  const [error, setError] = useState('');
  const practitioners = useQuery(trpc.practitioners.list.queryOptions({ branchId: a.branch._id, active: true }));
  const move = useFormMutation({
    mutationOptions: trpc.appointments.reschedule.mutationOptions,
    success: 'Appointment rescheduled.',
    failure: 'Failed to reschedule the appointment',
    after: async () => {
      onClose();
      await invalidateAppointments(queryClient);
    },
    onError: setError,
  });
  const submit = () => {
    if (!day || !/^\d{2}:\d{2}$/.test(time)) {
      setError('Give a day and a time.');
      return;
    }
    const start = instantOf(timeZone, day, time);
    move.mutate({
      id: a._id,
      start: start !== new Date(a.start).toISOString() ? start : undefined,
      practitionerId: practitionerId !== a.practitioner._id ? practitionerId : undefined,
      roomId: roomId === (a.room?._id ?? '') ? undefined : roomId || null,
    });
  };
  // The appointment's own practitioner stays a choice even when no longer active here.
  const team = practitioners.data?.data ?? [];
  const choices = [
    ...(team.some((p) => p._id === a.practitioner._id)
      ? []
      : [{ value: a.practitioner._id, label: a.practitioner.fullName }]),
    ...team.map((p) => ({ value: p._id, label: p.user.fullName })),
  ];
  return (
    <FormDialog
      title="Reschedule appointment"
      description={
        <>
          {a.customer?.username ?? 'Customer'}, {a.treatment.treatmentName}: now {dayLabel(wall.day)} at{' '}
          {timeIn(timeZone, a.start)} with {a.practitioner.fullName}.
        </>
      }
      error={error}
      pending={move.isPending}
      submitLabel="Reschedule"
      onClose={onClose}
      onSubmit={submit}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <LabelledInput id="reschedule-day" label="Day" type="date" value={day} onValueChange={setDay} />
        <LabelledInput id="reschedule-time" label="Time" type="time" step={60} value={time} onValueChange={setTime} />
        <LabelledField id="reschedule-practitioner" label="Practitioner">
          <ChoiceSelect
            id="reschedule-practitioner"
            value={practitionerId}
            onChange={setPractitionerId}
            choices={choices}
          />
        </LabelledField>
        <LabelledField id="reschedule-room" label="Room">
          <RoomSelect id="reschedule-room" branchId={a.branch._id} value={roomId} onChange={setRoomId} />
        </LabelledField>
      </div>
    </FormDialog>
  );
}
