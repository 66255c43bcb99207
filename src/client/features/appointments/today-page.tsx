import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { CalendarDaysIcon } from 'lucide-react';
import { useEffect, useState } from 'react';
import { PersonName } from '@/components/person-name';
import { LoadError } from '@/components/load-error';
import { PageHeader } from '@/components/page-header';
import { RequireRole, STAFF_ROLES } from '@/components/require-role';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { BranchSelect } from '@/features/payments/payment-common';
import { trpc } from '@/lib/trpc';
import { formatMoney } from '@shared/format';
import { StatusBadge, useStatusChange } from './appointment-actions';
import { STATUS_ACTIONS, timeIn, useClock, type TodayAppointment } from './appointment-queries';
import { dayLabel } from './zone';
import { LabelledField } from '@/components/labelled-field';

/** docs/appointments.md#today: the front desk's day, a list that works at 390 px. */
export function TodayPage() {
  return (
    <RequireRole roles={STAFF_ROLES}>
      <TodayScreen />
    </RequireRole>
  );
}

/** Now, re-read every minute so "late" follows the clock. */
function useNow() {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(t);
  }, []);
  return now;
}

function TodayScreen() {
  const [branchId, setBranchId] = useState('');
  const clock = useClock();
  const today = useQuery({
    ...trpc.appointments.today.queryOptions({ branchId: branchId || undefined }),
    refetchInterval: 60_000,
  });
  const status = useStatusChange();
  const now = useNow();
  const timeZone = clock.data?.timeZone ?? 'UTC';

  return (
    <div className="grid gap-4">
      <PageHeader
        title="Today"
        description={clock.data ? dayLabel(clock.data.today) : undefined}
        actions={
          <Button asChild variant="outline">
            <Link to="/calendar">
              <CalendarDaysIcon /> Calendar
            </Link>
          </Button>
        }
      />
      <LabelledField id="today-branch" label="Branch" className="w-full sm:w-64">
        <BranchSelect id="today-branch" value={branchId} onChange={setBranchId} />
      </LabelledField>
      {today.isPending || clock.isPending ? (
        <Skeleton className="h-40 w-full" />
      ) : today.isError ? (
        <LoadError error={today.error} onRetry={() => void today.refetch()} />
      ) : clock.isError ? (
        <LoadError error={clock.error} onRetry={() => void clock.refetch()} />
      ) : today.data.data.length === 0 ? (
        <p className="text-sm text-muted-foreground">No appointments today.</p>
      ) : (
        <ul className="grid gap-3" aria-label="Today's appointments">
          {today.data.data.map((a) => (
            <TodayRow key={a._id} a={a} timeZone={timeZone} now={now} onStatus={status.ask} busy={status.pending} />
          ))}
        </ul>
      )}
      {status.dialog}
    </div>
  );
}

function TodayRow({
  a,
  timeZone,
  now,
  onStatus,
  busy,
}: {
  a: TodayAppointment;
  timeZone: string;
  now: number;
  onStatus: ReturnType<typeof useStatusChange>['ask'];
  busy: boolean;
}) {
  const started = Date.parse(a.start) <= now;
  const late = started && (a.status === 'scheduled' || a.status === 'confirmed');
  const name = a.customer?.username ?? 'Customer';
  const actions: Array<{ status: TodayAppointment['status']; variant: 'default' | 'outline' | 'destructive' }> = [];
  if (a.status === 'scheduled' || a.status === 'confirmed') actions.push({ status: 'arrived', variant: 'default' });
  if (a.status === 'arrived') actions.push({ status: 'completed', variant: 'default' });
  if (started && (a.status === 'scheduled' || a.status === 'confirmed' || a.status === 'arrived'))
    actions.push({ status: 'no_show', variant: 'outline' });
  if (a.status === 'scheduled' || a.status === 'confirmed') actions.push({ status: 'cancelled', variant: 'outline' });

  return (
    <li data-testid="today-appointment" aria-label={`${timeIn(timeZone, a.start)} ${name}`}>
      <Card className="py-3">
        <CardContent className="grid gap-2 px-4">
          <div className="flex flex-wrap items-center gap-2">
            <span className="font-semibold tabular-nums">
              {timeIn(timeZone, a.start)}–{timeIn(timeZone, a.end)}
            </span>
            <StatusBadge status={a.status} />
            {late && <Badge variant="destructive">Late</Badge>}
          </div>
          <div className="text-sm">
            <PersonName fullName={a.customer?.fullName} handle={name} /> with{' '}
            <span className="inline-flex items-center gap-1">
              <span
                aria-hidden
                className="inline-block size-2.5 rounded-full"
                style={{ background: a.practitioner.color }}
              />
              {a.practitioner.fullName}
            </span>
            {a.room ? `, ${a.room.name}` : ''} · {a.treatment.treatmentName} · {a.branch.name}
          </div>
          <div className="flex flex-wrap items-center gap-2 text-sm">
            {a.outstanding > 0 ? (
              <>
                <span>
                  Owes <span className="font-medium">{formatMoney(a.outstanding, a.currency)}</span>
                </span>
                <Link to="/booking-details/$id" params={{ id: a.booking._id }} className="text-primary underline">
                  Record payment
                </Link>
              </>
            ) : (
              <span className="text-muted-foreground">Nothing owed</span>
            )}
          </div>
          {actions.length > 0 && (
            <div className="flex flex-wrap gap-2">
              {actions.map((x) => (
                <Button
                  key={x.status}
                  size="sm"
                  variant={x.variant}
                  disabled={busy}
                  aria-label={`${STATUS_ACTIONS[x.status]}: ${name}`}
                  onClick={() => onStatus(a, x.status)}
                >
                  {x.status === 'cancelled' ? 'Cancel' : STATUS_ACTIONS[x.status]}
                </Button>
              ))}
            </div>
          )}
        </CardContent>
      </Card>
    </li>
  );
}
