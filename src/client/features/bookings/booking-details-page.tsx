import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { ArrowLeftIcon, BanIcon, CheckIcon, MinusIcon, PencilIcon, PlusIcon, Trash2Icon, XIcon } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { toast } from 'sonner';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { LoadError } from '@/components/load-error';
import { PageHeader } from '@/components/page-header';
import { RequireRole, STAFF_ROLES } from '@/components/require-role';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Progress } from '@/components/ui/progress';
import { Spinner } from '@/components/ui/spinner';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { Textarea } from '@/components/ui/textarea';
import { useIsAdmin } from '@/lib/auth';
import { explainedMessage } from '@/lib/errors';
import { trpc } from '@/lib/trpc';
import { paymentCompletionPercentage, progressColor } from '@shared/booking-status';
import { formatDate, formatDateTime, formatMoney } from '@shared/format';
import { capitalize, type Booking } from './booking-queries';
import { PaymentsPanel } from '@/features/payments/payments-panel';
import { PaymentStatusBadge } from './payment-status-badge';
import { HistoryPanel } from '@/features/audit/history-panel';

const MISSING_INFO = 'Missing required booking information';

const BAR_COLOUR = { green: 'bg-success', orange: 'bg-warning', red: 'bg-destructive' } as const;
// The track carries the colour too, so an empty (0%) bar still reads red.
const TRACK_COLOUR = { green: 'bg-success/20', orange: 'bg-warning/20', red: 'bg-destructive/25' } as const;

/** docs/product.md#screens-and-routes, Treatment Booking Details (/booking-details/{id}). */
export function BookingDetailsPage({ id }: { id: string }) {
  return (
    <RequireRole roles={STAFF_ROLES}>
      <BookingDetails id={id} />
      <HistoryPanel entityType="booking" entityId={id} />
    </RequireRole>
  );
}

function BackLink() {
  return (
    <Button variant="outline" asChild>
      <Link to="/treatment/all-book">
        <ArrowLeftIcon /> Back to All Treatments
      </Link>
    </Button>
  );
}

function BookingDetails({ id }: { id: string }) {
  const admin = useIsAdmin();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const booking = useQuery(trpc.bookings.get.queryOptions({ id }));
  const [confirm, setConfirm] = useState<'delete' | 'cancel' | null>(null);

  const remove = useMutation(
    trpc.bookings.delete.mutationOptions({
      onSuccess: async () => {
        toast.success('Booking deleted successfully!');
        setConfirm(null);
        queryClient.removeQueries(trpc.bookings.get.queryFilter({ id }));
        await queryClient.invalidateQueries(trpc.bookings.list.pathFilter());
        await navigate({ to: '/treatment/all-book' });
      },
      onError: (err) => {
        toast.error(explainedMessage(err, 'Failed to delete booking'));
        setConfirm(null);
      },
    }),
  );
  const cancel = useMutation(
    trpc.bookings.cancel.mutationOptions({
      onSuccess: async (data) => {
        toast.success('Booking cancelled.');
        setConfirm(null);
        queryClient.setQueryData(trpc.bookings.get.queryKey({ id }), data);
        await queryClient.invalidateQueries(trpc.bookings.list.pathFilter());
      },
      onError: (err) => {
        toast.error(explainedMessage(err, 'Failed to cancel booking'));
        setConfirm(null);
      },
    }),
  );

  const header = (b?: Booking) => (
    <PageHeader
      title="Treatment Booking Details"
      description={
        b ? `${b.treatmentId.treatmentName} for ${b.userId?.email ?? b.deletedEmail ?? 'Unknown'}` : undefined
      }
      actions={
        <>
          <BackLink />
          {admin && b && b.status === 'active' && (
            <Button variant="outline" onClick={() => setConfirm('cancel')}>
              <BanIcon /> Cancel Booking
            </Button>
          )}
          {admin && b && (
            <Button variant="destructive" onClick={() => setConfirm('delete')}>
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
        <Card>
          <CardHeader>
            <CardTitle>Customer Information</CardTitle>
          </CardHeader>
          <CardContent>
            <dl className="grid gap-3 text-sm">
              <Row label="Patient username">{b.userId?.username ?? b.deletedUsername ?? 'Unknown'}</Row>
              <Row label="Email">{b.userId?.email ?? b.deletedEmail ?? 'Unknown'}</Row>
              <Row label="Patient Type">{capitalize(b.userType)}</Row>
            </dl>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Treatment Details</CardTitle>
          </CardHeader>
          <CardContent>
            <dl className="grid gap-3 text-sm">
              <Row label="Treatment">{b.treatmentId.treatmentName}</Row>
              <Row label="Total Price">
                <span data-testid="total-price">{formatMoney(b.price, b.currency)}</span>
              </Row>
              {b.treatmentPeriod && (
                <Row label="Treatment Period">
                  {formatDate(b.treatmentPeriod.startDate)} – {formatDate(b.treatmentPeriod.endDate)}
                </Row>
              )}
              <Row label="Booked On">{formatDate(b.bookedOn)}</Row>
              <Row label="Payment Type">{capitalize(b.paymentType)}</Row>
              <Row label="Payment Status">
                <PaymentStatusBadge status={b.paymentStatus} />
              </Row>
            </dl>
          </CardContent>
        </Card>
      </div>
      <PaymentProgress booking={b} />
      <SessionProgress booking={b} editable={editable} onSaved={setBooking} />
      <SessionNotes booking={b} editable={editable} onSaved={setBooking} />
      <Installments booking={b} editable={editable && admin} onSaved={setBooking} />
      <PaymentsPanel kind="booking" id={b._id} />
      <ConfirmDialog
        open={confirm !== null}
        onOpenChange={(open) => !open && setConfirm(null)}
        pending={remove.isPending || cancel.isPending}
        title={confirm === 'cancel' ? 'Cancel Booking' : 'Confirm Deletion'}
        confirmLabel={confirm === 'cancel' ? 'Cancel Booking' : 'Delete'}
        description={
          confirm === 'cancel'
            ? 'The booking is kept but marked cancelled, and no longer counts as revenue.'
            : 'Are you sure you want to delete this booking? Its installments and notes go with it. This action cannot be undone.'
        }
        onConfirm={() => (confirm === 'cancel' ? cancel.mutate({ id }) : remove.mutate({ id }))}
      />
    </div>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-[7rem_minmax(0,1fr)] items-center gap-2 sm:grid-cols-[10rem_minmax(0,1fr)]">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="font-medium break-words">{children}</dd>
    </div>
  );
}

function PaymentProgress({ booking: b }: { booking: Booking }) {
  const pct = paymentCompletionPercentage(b.installments, b.paymentStatus);
  const colour = progressColor(pct);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Payment Progress</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-2">
        <Progress
          value={pct}
          aria-label="Payment progress"
          data-testid="payment-progress"
          data-percent={pct}
          data-colour={colour}
          className={`h-3 ${TRACK_COLOUR[colour]}`}
          indicatorClassName={BAR_COLOUR[colour]}
        />
        <p className="text-sm text-muted-foreground">
          {pct}% paid ({b.installments.filter((i) => i.isPaid).length} of {b.installments.length} installments)
        </p>
      </CardContent>
    </Card>
  );
}

/** The detail screen writes sessions by booking id; a booking whose customer or treatment is gone is history. */
function missingInfo(b: Booking): boolean {
  return !b.userId || !b.treatmentId._id;
}

function SessionProgress({
  booking: b,
  editable,
  onSaved,
}: {
  booking: Booking;
  editable: boolean;
  onSaved: (b: Booking) => void;
}) {
  const [draft, setDraft] = useState<number | null>(null);
  const max = b.treatmentId.maxSessions;
  const save = useMutation(
    trpc.bookings.setSessions.mutationOptions({
      onSuccess: (data) => {
        toast.success('Sessions updated!');
        setDraft(null);
        onSaved(data);
      },
      onError: (err) => toast.error(explainedMessage(err, 'Failed to update sessions')),
    }),
  );
  const value = draft ?? b.sessionsCompleted;
  const startEdit = () => {
    if (missingInfo(b)) {
      toast.error(MISSING_INFO);
      return;
    }
    setDraft(b.sessionsCompleted);
  };
  return (
    <Card>
      <CardHeader className="flex flex-row items-center justify-between">
        <CardTitle>Session Progress</CardTitle>
        {editable && draft === null && (
          <Button size="sm" variant="outline" onClick={startEdit}>
            <PencilIcon /> Edit Sessions
          </Button>
        )}
      </CardHeader>
      <CardContent className="grid gap-3">
        {draft === null ? (
          <p className="text-sm" data-testid="sessions-completed">
            {b.sessionsCompleted} of {max} sessions completed
          </p>
        ) : (
          <div className="flex flex-wrap items-center gap-3">
            <Button
              size="icon"
              variant="outline"
              aria-label="Fewer sessions"
              disabled={value <= 0 || save.isPending}
              onClick={() => setDraft(value - 1)}
            >
              <MinusIcon />
            </Button>
            <span className="min-w-20 text-center text-sm font-medium" data-testid="sessions-draft">
              {value} / {max}
            </span>
            <Button
              size="icon"
              variant="outline"
              aria-label="More sessions"
              disabled={value >= max || save.isPending}
              onClick={() => setDraft(value + 1)}
            >
              <PlusIcon />
            </Button>
            <Button
              size="sm"
              onClick={() => save.mutate({ id: b._id, sessionsCompleted: value })}
              disabled={save.isPending}
            >
              {save.isPending ? <Spinner /> : <CheckIcon />} Save
            </Button>
            <Button size="sm" variant="outline" onClick={() => setDraft(null)} disabled={save.isPending}>
              <XIcon /> Cancel
            </Button>
          </div>
        )}
        <Progress value={max > 0 ? Math.round((b.sessionsCompleted / max) * 100) : 0} aria-label="Session progress" />
      </CardContent>
    </Card>
  );
}

/** One row per session 1..maxSessions (empty when no note is stored); only completed ones take a note. */
function SessionNotes({
  booking: b,
  editable,
  onSaved,
}: {
  booking: Booking;
  editable: boolean;
  onSaved: (b: Booking) => void;
}) {
  const [editing, setEditing] = useState<{ session: number; text: string } | null>(null);
  const save = useMutation(
    trpc.bookings.saveNote.mutationOptions({
      onSuccess: (data) => {
        toast.success('Session note saved!');
        setEditing(null);
        onSaved(data);
      },
      onError: (err) => toast.error(explainedMessage(err, 'Failed to save note')),
    }),
  );
  const sessions = Array.from({ length: b.treatmentId.maxSessions }, (_, i) => i + 1);
  const noteOf = (n: number) => b.sessionNotes.find((s) => s.sessionNumber === n);
  const startEdit = (n: number) => {
    if (missingInfo(b)) {
      toast.error(MISSING_INFO);
      return;
    }
    setEditing({ session: n, text: noteOf(n)?.note ?? '' });
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle>Session Notes</CardTitle>
      </CardHeader>
      {/* Scrolls on its own: focusable so that a keyboard can scroll it too. */}
      <CardContent
        className="grid max-h-[500px] gap-3 overflow-y-auto"
        tabIndex={0}
        role="region"
        aria-label="Session notes"
      >
        {sessions.map((n) => {
          const completed = n <= b.sessionsCompleted;
          const note = noteOf(n);
          const isEditing = editing?.session === n;
          return (
            <div key={n} className="grid gap-2 rounded-md border p-3" data-testid="session-note" data-session={n}>
              <div className="flex flex-wrap items-center justify-between gap-2">
                <div className="flex items-center gap-2 text-sm font-medium">
                  Session {n}
                  {completed ? <Badge variant="success">Completed</Badge> : <Badge variant="secondary">Pending</Badge>}
                  {note?.date && (
                    <span className="text-xs font-normal text-muted-foreground">{formatDateTime(note.date)}</span>
                  )}
                </div>
                {editable && completed && !isEditing && (
                  <Button
                    size="sm"
                    variant="ghost"
                    onClick={() => startEdit(n)}
                    aria-label={`Edit note for session ${n}`}
                  >
                    <PencilIcon /> Edit note
                  </Button>
                )}
              </div>
              {isEditing ? (
                <div className="grid gap-2">
                  <Textarea
                    aria-label={`Note for session ${n}`}
                    value={editing.text}
                    maxLength={5000}
                    onChange={(e) => setEditing({ session: n, text: e.target.value })}
                    autoFocus
                  />
                  <div className="flex gap-2">
                    <Button
                      size="sm"
                      onClick={() => save.mutate({ id: b._id, sessionNumber: n, note: editing.text })}
                      disabled={save.isPending}
                    >
                      {save.isPending ? <Spinner /> : <CheckIcon />} Save note
                    </Button>
                    <Button size="sm" variant="outline" onClick={() => setEditing(null)} disabled={save.isPending}>
                      <XIcon /> Cancel
                    </Button>
                  </div>
                </div>
              ) : (
                <p className="text-sm whitespace-pre-wrap text-muted-foreground" data-testid="session-note-text">
                  {note?.note || (completed ? 'No note yet.' : 'Not completed yet.')}
                </p>
              )}
            </div>
          );
        })}
      </CardContent>
    </Card>
  );
}

function Installments({
  booking: b,
  editable,
  onSaved,
}: {
  booking: Booking;
  editable: boolean;
  onSaved: (b: Booking) => void;
}) {
  const toggle = useMutation(
    trpc.bookings.setInstallmentPaid.mutationOptions({
      onSuccess: (data) => {
        toast.success('Installment status updated!');
        onSaved(data);
      },
      onError: (err) => toast.error(explainedMessage(err, 'Failed to update installment')),
    }),
  );
  return (
    <Card>
      <CardHeader>
        <CardTitle>Installment Details</CardTitle>
      </CardHeader>
      <CardContent>
        <Table containerClassName="rounded-md border" aria-label="Installments">
          <TableHeader>
            <TableRow>
              <TableHead className="w-12">#</TableHead>
              <TableHead className="text-right">Amount ({b.currency})</TableHead>
              <TableHead className="text-right">Paid so far</TableHead>
              <TableHead>Due Date</TableHead>
              <TableHead>Status</TableHead>
              <TableHead>Paid Date</TableHead>
              {editable && <TableHead className="text-right">Action</TableHead>}
            </TableRow>
          </TableHeader>
          <TableBody>
            {b.installments.map((inst, i) => {
              return (
                <TableRow key={inst._id} data-testid="installment-row" data-paid={inst.isPaid}>
                  <TableCell className="text-muted-foreground">{i + 1}</TableCell>
                  <TableCell className="text-right tabular-nums">{formatMoney(inst.amount, b.currency)}</TableCell>
                  <TableCell className="text-right tabular-nums" data-testid="installment-paid">
                    {formatMoney(inst.amountPaid, b.currency)}
                  </TableCell>
                  <TableCell>{formatDate(inst.dueDate)}</TableCell>
                  <TableCell>
                    {inst.isPaid ? (
                      <Badge variant="success">Paid</Badge>
                    ) : inst.isOverdue ? (
                      <Badge variant="destructive">Overdue</Badge>
                    ) : (
                      <Badge variant="secondary">Pending</Badge>
                    )}
                  </TableCell>
                  <TableCell>{inst.isPaid ? formatDate(inst.paidAt) : ''}</TableCell>
                  {editable && (
                    <TableCell className="text-right">
                      <Button
                        size="sm"
                        variant={inst.isPaid ? 'outline' : 'default'}
                        disabled={toggle.isPending}
                        onClick={() => toggle.mutate({ id: b._id, installmentId: inst._id, isPaid: !inst.isPaid })}
                      >
                        {inst.isPaid ? 'Mark as Unpaid' : 'Mark as Paid'}
                      </Button>
                    </TableCell>
                  )}
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </CardContent>
    </Card>
  );
}
