import { Link } from '@tanstack/react-router';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { AppointmentMenu, StatusBadge } from './appointment-actions';
import { timeIn, type Appointment } from './appointment-queries';
import { dayLabel, wallOf } from './zone';

/** An appointment opened from the calendar: who, when, where, and its menu. */
export function AppointmentDialog({
  appointment: a,
  timeZone,
  onClose,
  onStatus,
  onReschedule,
}: {
  appointment: Appointment;
  timeZone: string;
  onClose: () => void;
  onStatus: Parameters<typeof AppointmentMenu>[0]['onStatus'];
  onReschedule: (a: Appointment) => void;
}) {
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{a.customer?.username ?? 'Appointment'}</DialogTitle>
          <DialogDescription>
            {a.treatment.treatmentName}, {dayLabel(wallOf(timeZone, a.start).day)} {timeIn(timeZone, a.start)}–
            {timeIn(timeZone, a.end)}
          </DialogDescription>
        </DialogHeader>
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="text-muted-foreground">Status</dt>
          <dd>
            <StatusBadge status={a.status} />
          </dd>
          <dt className="text-muted-foreground">Practitioner</dt>
          <dd>{a.practitioner.fullName}</dd>
          <dt className="text-muted-foreground">Room</dt>
          <dd>{a.room?.name ?? 'None'}</dd>
          <dt className="text-muted-foreground">Booking</dt>
          <dd>
            <Link to="/booking-details/$id" params={{ id: a.booking._id }} className="underline">
              Booking details
            </Link>
          </dd>
        </dl>
        <DialogFooter>
          <Button variant="outline" onClick={onClose}>
            Close
          </Button>
          <AppointmentMenu appointment={a} onStatus={onStatus} onReschedule={onReschedule} />
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
