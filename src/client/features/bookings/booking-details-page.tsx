import { useQuery, useQueryClient } from '@tanstack/react-query';
import { BanIcon, Trash2Icon } from 'lucide-react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { BackLink } from '@/components/details-page';
import { LoadError } from '@/components/load-error';
import { PageHeader } from '@/components/page-header';
import { RequireRole, STAFF_ROLES } from '@/components/require-role';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { useIsAdmin } from '@/lib/auth';
import { trpc } from '@/lib/trpc';
import { formatDateTime, formatDay } from '@shared/format';
import { HistoryPanel } from '@/features/audit/history-panel';
import { BookingAppointments } from '@/features/appointments/booking-appointments';
import { InstallmentsCard } from '@/features/payments/installment-table';
import { PaymentsPanel } from '@/features/payments/payments-panel';
import { AdjustmentsPanel } from '@/features/adjustments/adjustments-panel';
import { useInstallmentToggle } from '@/features/payments/use-installment-toggle';
import { CustomerCard, PaymentProgress, TreatmentCard } from './booking-cards';
import { customerEmail, type Booking } from './booking-queries';
import { SessionNotes } from './session-notes';
import { SessionProgress } from './session-progress';
import { useBookingActions } from './use-booking-actions';

/** docs/product.md#screens-and-routes, Treatment Booking Details (/booking-details/{id}). */
export function BookingDetailsPage({ id }: { id: string }) {
  return (
    <RequireRole roles={STAFF_ROLES}>
      <BookingDetails id={id} />
      <HistoryPanel entityType="booking" entityId={id} />
    </RequireRole>
  );
}

function BookingDetails({ id }: { id: string }) {
  const admin = useIsAdmin();
  const queryClient = useQueryClient();
  const booking = useQuery(trpc.bookings.get.queryOptions({ id }));
  const actions = useBookingActions(id);
  const toggle = useInstallmentToggle('booking', id);

  // The spec's target for this link is the bookings list (docs/product.md#screens-and-routes).
  const header = (b?: Booking) => (
    <PageHeader
      title="Treatment Booking Details"
      description={b ? `${b.treatmentId.treatmentName} for ${customerEmail(b)}` : undefined}
      actions={
        <>
          <BackLink to="/treatment/all-book">Back to All Treatments</BackLink>
          {admin && b && b.status === 'active' && (
            <Button variant="outline" onClick={() => actions.ask('cancel')}>
              <BanIcon /> Cancel Booking
            </Button>
          )}
          {admin && b && (
            <Button variant="destructive" onClick={() => actions.ask('delete')}>
              <Trash2Icon /> Delete
            </Button>
          )}
        </>
      }
    />
  );

  if (booking.isPending) {
    return (
      <div>
        {header()}
        <div className="flex justify-center py-16">
          <Spinner className="size-8 text-muted-foreground" />
        </div>
      </div>
    );
  }
  if (booking.isError) {
    return (
      <div>
        {header()}
        <LoadError error={booking.error} onRetry={() => void booking.refetch()} />
      </div>
    );
  }
  const b = booking.data;
  const setBooking = (next: Booking) => {
    queryClient.setQueryData(trpc.bookings.get.queryKey({ id }), next);
    void queryClient.invalidateQueries(trpc.bookings.list.pathFilter());
  };
  const editable = b.status === 'active';

  return (
    <div className="grid gap-6">
      {header(b)}
      {b.status === 'cancelled' && (
        <Alert variant="destructive">
          <BanIcon />
          <AlertDescription>
            This booking was cancelled on {formatDateTime(b.cancelledAt)}. It is kept for the record and cannot be
            changed.
          </AlertDescription>
        </Alert>
      )}
      <div className="grid gap-6 lg:grid-cols-2">
        <CustomerCard booking={b} />
        <TreatmentCard booking={b} />
      </div>
      <PaymentProgress booking={b} />
      <SessionProgress booking={b} editable={editable} onSaved={setBooking} />
      <BookingAppointments
        bookingId={b._id}
        editable={editable}
        sessionsLeft={b.treatmentId.maxSessions - b.sessionsCompleted}
      />
      <SessionNotes booking={b} editable={editable} onSaved={setBooking} />
      <InstallmentsCard
        title="Installment Details"
        currency={b.currency}
        installments={b.installments}
        toggle={editable && admin ? toggle : undefined}
      />
      <AdjustmentsPanel
        record={{ bookingId: b._id }}
        currency={b.currency}
        closed={b.status === 'cancelled' ? 'This booking is cancelled.' : null}
        items={b.installments.map((i, n) => ({
          id: i._id,
          label: `Installment ${n + 1} (due ${formatDay(i.dueDate)})`,
        }))}
      />
      <PaymentsPanel kind="booking" id={b._id} />
      <ConfirmDialog {...actions.dialog} />
    </div>
  );
}
