import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { LoadError } from '@/components/load-error';
import { PageHeader } from '@/components/page-header';
import { TitledCard } from '@/components/titled-card';
import { Badge } from '@/components/ui/badge';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { trpc, type RouterOutputs } from '@/lib/trpc';
import { formatDateTime, formatDay } from '@shared/format';
import { WEEKDAYS } from '@shared/schemas/classes';

type Batch = RouterOutputs['batches']['get'];

const label = (w: string) => w[0]!.toUpperCase() + w.slice(1, 3);
const rateText = (r: number | null) => (r === null ? '—' : `${r.toFixed(1)} %`);

/** Batches: every batch the caller reads (docs/classes.md#batches), newest start first. */
export function BatchListPage() {
  const list = useQuery(trpc.batches.list.queryOptions({}));
  return (
    <>
      <PageHeader
        title="Batches"
        description="Running groups of a course, with their timetable and roster."
        actions={
          <Link to="/classes/today" search={{}} className="text-sm underline">
            Take attendance
          </Link>
        }
      />
      {list.isError ? (
        <LoadError error={list.error} onRetry={() => void list.refetch()} />
      ) : list.isPending ? (
        <Skeleton className="h-48 w-full" />
      ) : (
        <Table aria-label="Batches">
          <TableHeader>
            <TableRow>
              <TableHead>Name</TableHead>
              <TableHead>Course</TableHead>
              <TableHead>Branch</TableHead>
              <TableHead>Instructor</TableHead>
              <TableHead>Dates</TableHead>
              <TableHead>Seats</TableHead>
              <TableHead>Status</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {list.data.data.map((b) => (
              <TableRow key={b._id}>
                <TableCell>
                  <Link to="/batches/$batchId" params={{ batchId: b._id }} className="font-medium underline">
                    {b.name}
                  </Link>
                </TableCell>
                <TableCell>{b.course?.courseName ?? '—'}</TableCell>
                <TableCell>{b.branch?.name ?? '—'}</TableCell>
                <TableCell>{b.instructor?.fullName ?? '—'}</TableCell>
                <TableCell>
                  {formatDay(b.startDate)} – {formatDay(b.endDate)}
                </TableCell>
                <TableCell>
                  {b.seatsTaken} / {b.capacity}
                  {b.waitlisted ? ` (+${b.waitlisted} waiting)` : ''}
                </TableCell>
                <TableCell>
                  <Badge variant={b.status === 'open' ? 'default' : 'secondary'}>{b.status}</Badge>
                </TableCell>
              </TableRow>
            ))}
            {list.data.data.length === 0 && (
              <TableRow>
                <TableCell colSpan={7} className="text-muted-foreground">
                  No batches yet.
                </TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      )}
    </>
  );
}

/** The timetable drawn as a week: one column per weekday with its slots. */
function WeekGrid({ batch }: { batch: Batch }) {
  return (
    <div className="grid grid-cols-7 gap-1 text-xs" aria-label="Timetable">
      {WEEKDAYS.map((w) => (
        <div key={w} className="min-h-20 rounded border p-1">
          <div className="mb-1 font-semibold">{label(w)}</div>
          {batch.timetable
            .filter((s) => s.weekday === w)
            .map((s) => (
              <div key={`${s.start}-${s.end}`} className="mb-1 rounded bg-primary/10 p-1">
                {s.start}–{s.end}
                {s.room ? <div className="text-muted-foreground">{s.room.name}</div> : null}
              </div>
            ))}
        </div>
      ))}
    </div>
  );
}

/** A batch: its week, its roster with rates and waiting list, its sessions and their state. */
export function BatchDetailsPage({ batchId }: { batchId: string }) {
  const batch = useQuery(trpc.batches.get.queryOptions({ id: batchId }));
  const roster = useQuery(trpc.batches.roster.queryOptions({ id: batchId }));
  const sessions = useQuery(trpc.batches.sessions.queryOptions({ id: batchId }));
  if (batch.isError) return <LoadError error={batch.error} onRetry={() => void batch.refetch()} />;
  if (batch.isPending) return <Skeleton className="h-64 w-full" />;
  const b = batch.data;
  return (
    <>
      <PageHeader
        title={b.name}
        description={`${b.course?.courseName ?? '—'} · ${b.branch?.name ?? '—'} · ${b.instructor?.fullName ?? '—'} · ${formatDay(b.startDate)} – ${formatDay(b.endDate)}`}
      />
      <div className="grid gap-6">
        <TitledCard title="Timetable">
          <WeekGrid batch={b} />
        </TitledCard>
        <TitledCard title={`Roster (${b.seatsTaken} of ${b.capacity} seats)`}>
          {roster.isError ? (
            <LoadError error={roster.error} onRetry={() => void roster.refetch()} />
          ) : roster.isPending ? (
            <Skeleton className="h-24 w-full" />
          ) : (
            <>
              <Table aria-label="Roster">
                <TableHeader>
                  <TableRow>
                    <TableHead>Student</TableHead>
                    <TableHead>Joined on</TableHead>
                    <TableHead>Attendance</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {roster.data.data.map((r) => (
                    <TableRow key={r.enrollmentId}>
                      <TableCell>{r.student.fullName}</TableCell>
                      <TableCell>{formatDay(r.joinedOn)}</TableCell>
                      <TableCell>{rateText(r.rate)}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
              {roster.data.waitlist.length > 0 && (
                <p className="mt-3 text-sm">
                  Waiting list: {roster.data.waitlist.map((w) => w.student.fullName).join(', ')}
                </p>
              )}
            </>
          )}
        </TitledCard>
        <TitledCard title="Sessions">
          {sessions.isError ? (
            <LoadError error={sessions.error} onRetry={() => void sessions.refetch()} />
          ) : sessions.isPending ? (
            <Skeleton className="h-24 w-full" />
          ) : (
            <Table aria-label="Sessions">
              <TableHeader>
                <TableRow>
                  <TableHead>Start</TableHead>
                  <TableHead>Room</TableHead>
                  <TableHead>State</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {sessions.data.data.map((s) => (
                  <TableRow key={s._id}>
                    <TableCell>
                      <Link to="/classes/today" search={{ session: s._id }} className="underline">
                        {formatDateTime(s.start)}
                      </Link>
                    </TableCell>
                    <TableCell>{s.room?.name ?? '—'}</TableCell>
                    <TableCell>{s.status === 'cancelled' ? `Cancelled: ${s.reason ?? ''}` : 'Scheduled'}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </TitledCard>
      </div>
    </>
  );
}
