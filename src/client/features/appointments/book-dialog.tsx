import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { UserPicker } from '@/components/user-picker';
import { Spinner } from '@/components/ui/spinner';
import { useFormMutation } from '@/lib/use-form-mutation';
import { trpc } from '@/lib/trpc';
import { invalidateAppointments, timeIn } from './appointment-queries';
import { FormDialog } from '@/components/form-dialog';
import { ChoiceSelect } from '@/components/native-select';
import { LabelledField } from '@/components/labelled-field';
import { RoomSelect } from './room-select';
import { dayLabel, wallOf } from './zone';

/**
 * Booking a free slot (docs/appointments.md#appointments): the customer (the user picker), one of
 * their active bookings, then a practitioner and a room among those the availability call offers
 * for that treatment at that start.
 */
export function BookDialog({
  start,
  branchId,
  practitionerId: clicked,
  roomId: clickedRoom,
  timeZone,
  onClose,
}: {
  /** The slot's start, an instant. */
  start: string;
  branchId: string;
  /** The column clicked, when it was a practitioner's or a room's. */
  practitionerId?: string;
  roomId?: string;
  timeZone: string;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const pickerId = useId();
  const [email, setEmail] = useState('');
  const [bookingId, setBookingId] = useState('');
  const [practitionerId, setPractitionerId] = useState('');
  const [roomId, setRoomId] = useState<string | null>(null);
  const [error, setError] = useState('');
  const wall = wallOf(timeZone, start);

  const customerEmail = email.trim().toLowerCase();
  const bookings = useQuery({
    ...trpc.bookings.list.queryOptions({ search: customerEmail, status: 'active', page: 1, pageSize: 50 }),
    enabled: customerEmail.includes('@'),
  });
  // The search also finds by treatment name: keep the customer's own bookings only.
  const own = (bookings.data?.items ?? []).filter((b) => b.userId?.email === customerEmail);
  const booking = own.find((b) => b._id === bookingId) ?? (own.length === 1 ? own[0] : undefined);
  const treatmentId = booking?.treatmentId._id ?? '';

  const slots = useQuery({
    ...trpc.appointments.availability.queryOptions({ treatmentId, branchId, from: wall.day, to: wall.day }),
    enabled: !!treatmentId,
  });
  const here = (slots.data?.data ?? []).filter((s) => Date.parse(s.start) === Date.parse(start));
  const practitioners = useQuery(trpc.practitioners.list.queryOptions({ branchId, active: true }));
  const nameOf = (id: string) => practitioners.data?.data.find((p) => p._id === id)?.user.fullName ?? 'Practitioner';
  const offered = [...new Set(here.map((s) => s.practitionerId))];
  const chosen = offered.includes(practitionerId)
    ? practitionerId
    : clicked && offered.includes(clicked)
      ? clicked
      : (offered[0] ?? '');
  const slotRoom = here.find((s) => s.practitionerId === chosen)?.roomId ?? null;
  const room = roomId ?? clickedRoom ?? slotRoom ?? '';

  const create = useFormMutation({
    mutationOptions: trpc.appointments.create.mutationOptions,
    success: (a) => `Booked ${a.customer?.username ?? 'the appointment'} with ${a.practitioner.fullName}.`,
    failure: 'Failed to book the appointment',
    after: async () => {
      onClose();
      await invalidateAppointments(queryClient);
    },
    onError: setError,
  });

  const submit = () => {
    if (!booking) return setError('Choose the customer and their booking.');
    if (!chosen) return setError('No practitioner is free for this treatment at this time.');
    create.mutate({ bookingId: booking._id, practitionerId: chosen, branchId, start, roomId: room || undefined });
  };

  return (
    <FormDialog
      title="Book appointment"
      description={`${dayLabel(wall.day)} at ${timeIn(timeZone, start)}`}
      error={error}
      pending={create.isPending}
      submitLabel="Book"
      submitDisabled={!booking || !chosen}
      onClose={onClose}
      onSubmit={submit}
    >
      <LabelledField id={pickerId} label="Customer">
        <UserPicker
          placeholder="Name, e-mail or phone"
          control={{
            id: pickerId,
            name: 'customer',
            value: email,
            onChange: (v) => {
              setEmail(typeof v === 'string' ? v : '');
              setBookingId('');
              setError('');
            },
            onBlur: () => {},
            ref: () => {},
            'aria-invalid': false,
          }}
        />
      </LabelledField>
      {customerEmail.includes('@') && (
        <LabelledField id="book-booking" label="Booking">
          {bookings.isPending ? (
            <Spinner />
          ) : own.length ? (
            <ChoiceSelect
              id="book-booking"
              value={booking?._id ?? ''}
              onChange={(id) => {
                setBookingId(id);
                setPractitionerId('');
                setRoomId(null);
              }}
              empty={own.length > 1 ? 'Choose a booking' : undefined}
              choices={own.map((b) => ({
                value: b._id,
                label: `${b.treatmentId.treatmentName} (${b.sessionsCompleted} of ${b.treatmentId.maxSessions} done)`,
              }))}
            />
          ) : (
            <p className="text-sm text-muted-foreground">This customer has no active booking.</p>
          )}
        </LabelledField>
      )}
      {booking && (
        <div className="grid gap-4 sm:grid-cols-2">
          <LabelledField id="book-practitioner" label="Practitioner">
            {slots.isPending ? (
              <Spinner />
            ) : offered.length ? (
              <ChoiceSelect
                id="book-practitioner"
                value={chosen}
                onChange={(id) => {
                  setPractitionerId(id);
                  setRoomId(null);
                }}
                choices={offered.map((id) => ({ value: id, label: nameOf(id) }))}
              />
            ) : (
              <p className="text-sm text-muted-foreground">Nobody is free for this treatment at this time.</p>
            )}
          </LabelledField>
          <LabelledField id="book-room" label="Room">
            <RoomSelect id="book-room" branchId={branchId} value={room} onChange={setRoomId} />
          </LabelledField>
        </div>
      )}
    </FormDialog>
  );
}
