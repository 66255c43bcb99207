import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { toast } from 'sonner';
import { NativeSelect } from '@/components/native-select';
import { UserPicker } from '@/components/user-picker';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { explainedMessage } from '@/lib/errors';
import { trpc } from '@/lib/trpc';
import { invalidateAppointments, timeIn } from './appointment-queries';
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
  const rooms = useQuery(trpc.rooms.list.queryOptions({ branchId }));
  const nameOf = (id: string) => practitioners.data?.data.find((p) => p._id === id)?.user.fullName ?? 'Practitioner';
  const offered = [...new Set(here.map((s) => s.practitionerId))];
  const chosen = offered.includes(practitionerId)
    ? practitionerId
    : clicked && offered.includes(clicked)
      ? clicked
      : (offered[0] ?? '');
  const slotRoom = here.find((s) => s.practitionerId === chosen)?.roomId ?? null;
  const room = roomId ?? clickedRoom ?? slotRoom ?? '';

  const create = useMutation(
    trpc.appointments.create.mutationOptions({
      onSuccess: async (a) => {
        toast.success(`Booked ${a.customer?.username ?? 'the appointment'} with ${a.practitioner.fullName}.`);
        onClose();
        await invalidateAppointments(queryClient);
      },
      onError: (err) => setError(explainedMessage(err, 'Failed to book the appointment')),
    }),
  );

  const submit = () => {
    if (!booking) return setError('Choose the customer and their booking.');
    if (!chosen) return setError('No practitioner is free for this treatment at this time.');
    create.mutate({ bookingId: booking._id, practitionerId: chosen, branchId, start, roomId: room || undefined });
  };

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <form
          className="space-y-4"
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
        >
          <DialogHeader>
            <DialogTitle>Book appointment</DialogTitle>
            <DialogDescription>
              {dayLabel(wall.day)} at {timeIn(timeZone, start)}
            </DialogDescription>
          </DialogHeader>
          <div className="space-y-1">
            <Label htmlFor={pickerId}>Customer</Label>
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
          </div>
          {customerEmail.includes('@') && (
            <div className="space-y-1">
              <Label htmlFor="book-booking">Booking</Label>
              {bookings.isPending ? (
                <Spinner />
              ) : own.length ? (
                <NativeSelect
                  id="book-booking"
                  value={booking?._id ?? ''}
                  onChange={(e) => {
                    setBookingId(e.target.value);
                    setPractitionerId('');
                    setRoomId(null);
                  }}
                >
                  {own.length > 1 && <option value="">Choose a booking</option>}
                  {own.map((b) => (
                    <option key={b._id} value={b._id}>
                      {b.treatmentId.treatmentName} ({b.sessionsCompleted} of {b.treatmentId.maxSessions} done)
                    </option>
                  ))}
                </NativeSelect>
              ) : (
                <p className="text-sm text-muted-foreground">This customer has no active booking.</p>
              )}
            </div>
          )}
          {booking && (
            <div className="grid gap-4 sm:grid-cols-2">
              <div className="space-y-1">
                <Label htmlFor="book-practitioner">Practitioner</Label>
                {slots.isPending ? (
                  <Spinner />
                ) : offered.length ? (
                  <NativeSelect
                    id="book-practitioner"
                    value={chosen}
                    onChange={(e) => {
                      setPractitionerId(e.target.value);
                      setRoomId(null);
                    }}
                  >
                    {offered.map((id) => (
                      <option key={id} value={id}>
                        {nameOf(id)}
                      </option>
                    ))}
                  </NativeSelect>
                ) : (
                  <p className="text-sm text-muted-foreground">Nobody is free for this treatment at this time.</p>
                )}
              </div>
              <div className="space-y-1">
                <Label htmlFor="book-room">Room</Label>
                <NativeSelect id="book-room" value={room} onChange={(e) => setRoomId(e.target.value)}>
                  <option value="">No room</option>
                  {(rooms.data?.data ?? []).map((r) => (
                    <option key={r._id} value={r._id}>
                      {r.name}
                    </option>
                  ))}
                </NativeSelect>
              </div>
            </div>
          )}
          {error && (
            <p role="alert" className="text-sm text-destructive">
              {error}
            </p>
          )}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose}>
              Close
            </Button>
            <Button type="submit" disabled={create.isPending || !booking || !chosen}>
              {create.isPending && <Spinner />} Book
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
