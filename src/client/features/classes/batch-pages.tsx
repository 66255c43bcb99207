import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { toast } from 'sonner';
import { LoadError } from '@/components/load-error';
import { QueryView } from '@/components/query-view';
import { NativeSelect } from '@/components/native-select';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { PageHeader } from '@/components/page-header';
import { TitledCard } from '@/components/titled-card';
import { Badge } from '@/components/ui/badge';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { useIsAdmin } from '@/lib/auth';
import { explainedMessage } from '@/lib/errors';
import { trpc, type RouterOutputs } from '@/lib/trpc';
import { formatDateTime, formatDay, formatMoney } from '@shared/format';
import { BatchFormDialog } from './batch-form';
import { RegisterGrid } from './register-grid';
import { MoveSession } from './session-move';
import { WEEKDAYS } from '@shared/schemas/classes';
import { LabelledField } from '@/components/labelled-field';
import { onSubmitted } from '@/lib/utils';

type Batch = RouterOutputs['batches']['get'];

const label = (w: string) => w[0]!.toUpperCase() + w.slice(1, 3);
const rateText = (r: number | null) => (r === null ? '—' : `${r.toFixed(1)} %`);

/** Batches: every batch the caller reads (docs/classes.md#batches), newest start first. */
export function BatchListPage() {
  const list = useQuery(trpc.batches.list.queryOptions({}));
  const admin = useIsAdmin();
  const [creating, setCreating] = useState(false);
  return (
    <>
      <PageHeader
        title="Batches"
        description="Running groups of a course, with their timetable and roster."
        actions={
          <div className="flex items-center gap-3">
            <Link to="/classes/today" search={{}} className="text-sm underline">
              Take attendance
            </Link>
            {admin && <Button onClick={() => setCreating(true)}>New batch</Button>}
          </div>
        }
      />
      {creating && <BatchFormDialog onClose={() => setCreating(false)} />}
      <QueryView query={list} placeholder="h-48 w-full">
        {(data) => (
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
              {data.data.map((b) => (
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
              {data.data.length === 0 && (
                <TableRow>
                  <TableCell colSpan={7} className="text-muted-foreground">
                    No batches yet.
                  </TableCell>
                </TableRow>
              )}
            </TableBody>
          </Table>
        )}
      </QueryView>
    </>
  );
}

/** The timetable drawn as a week: one column per weekday with its slots. */
function WeekGrid({ batch }: { batch: Batch }) {
  return (
    <div className="grid min-w-[36rem] grid-cols-7 gap-1 text-xs" aria-label="Timetable">
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
  const admin = useIsAdmin();
  const timeZone = useQuery(trpc.classSessions.clock.queryOptions()).data?.timeZone;
  const [editing, setEditing] = useState(false);
  const courseId = batch.data?.course?._id;
  const enrolments = useQuery({
    ...trpc.enrollments.list.queryOptions({
      courseId: courseId ?? '',
      page: 1,
      pageSize: 200,
      sortBy: 'createdAt',
      sortDir: 'asc',
    }),
    enabled: !!courseId,
  });
  if (batch.isError) return <LoadError error={batch.error} onRetry={() => void batch.refetch()} />;
  if (batch.isPending) return <Skeleton className="h-64 w-full" />;
  const b = batch.data;
  const balanceOf = (enrollmentId: string) => {
    const e = enrolments.data?.items.find((x) => x._id === enrollmentId);
    return e ? formatMoney(e.outstandingAmount, e.currency) : '—';
  };
  return (
    <>
      <PageHeader
        title={b.name}
        description={`${b.course?.courseName ?? '—'} · ${b.branch?.name ?? '—'} · ${b.instructor?.fullName ?? '—'} · ${formatDay(b.startDate)} – ${formatDay(b.endDate)}`}
        actions={admin && <Button onClick={() => setEditing(true)}>Edit batch</Button>}
      />
      {editing && <BatchFormDialog batch={b} onClose={() => setEditing(false)} />}
      <div className="grid gap-6">
        <TitledCard title="Timetable">
          {/* Focusable, so a keyboard can scroll the week sideways on a phone. */}
          <div className="overflow-x-auto" tabIndex={0} role="region" aria-label="Timetable week">
            <WeekGrid batch={b} />
          </div>
        </TitledCard>
        <TitledCard title={`Roster (${b.seatsTaken} of ${b.capacity} seats)`}>
          <QueryView query={roster} placeholder="h-24 w-full">
            {(data) => (
              <>
                <Table aria-label="Roster">
                  <TableHeader>
                    <TableRow>
                      <TableHead>Student</TableHead>
                      <TableHead>Joined on</TableHead>
                      <TableHead>Attendance</TableHead>
                      <TableHead>Balance</TableHead>
                    </TableRow>
                  </TableHeader>
                  <TableBody>
                    {data.data.map((r) => (
                      <TableRow key={r.enrollmentId}>
                        <TableCell>{r.student.fullName}</TableCell>
                        <TableCell>{formatDay(r.joinedOn)}</TableCell>
                        <TableCell>{rateText(r.rate)}</TableCell>
                        <TableCell>{balanceOf(r.enrollmentId)}</TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
                {data.waitlist.length > 0 && (
                  <div className="mt-3 text-sm">
                    <h3 className="font-medium">Waiting list</h3>
                    <ol className="ml-5 list-decimal" aria-label="Waiting list">
                      {data.waitlist.map((w) => (
                        <li key={w.enrollmentId}>
                          {w.student.fullName}{' '}
                          <span className="text-muted-foreground">since {formatDateTime(w.since, timeZone)}</span>
                        </li>
                      ))}
                    </ol>
                  </div>
                )}
                {b.status === 'open' && (
                  <AddStudent
                    batch={b}
                    candidates={(enrolments.data?.items ?? []).filter(
                      (e) =>
                        e.status !== 'Completed' &&
                        !data.data.some((r) => r.enrollmentId === e._id) &&
                        !data.waitlist.some((w) => w.enrollmentId === e._id),
                    )}
                  />
                )}
              </>
            )}
          </QueryView>
        </TitledCard>
        <TitledCard title="Sessions">
          <QueryView query={sessions} placeholder="h-24 w-full">
            {(data) => (
              <Table aria-label="Sessions">
                <TableHeader>
                  <TableRow>
                    <TableHead>Start</TableHead>
                    <TableHead>Room</TableHead>
                    <TableHead>State</TableHead>
                    {admin && <TableHead className="sr-only">Actions</TableHead>}
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {data.data.map((s) => (
                    <TableRow key={s._id}>
                      <TableCell>
                        <Link to="/classes/today" search={{ session: s._id }} className="underline">
                          {formatDateTime(s.start, timeZone)}
                        </Link>
                      </TableCell>
                      <TableCell>{s.room?.name ?? '—'}</TableCell>
                      <TableCell>{s.status === 'cancelled' ? `Cancelled: ${s.reason ?? ''}` : 'Scheduled'}</TableCell>
                      {admin && (
                        <TableCell>
                          {s.status === 'scheduled' && new Date(s.start) > new Date() && (
                            <div className="flex flex-wrap items-center gap-2">
                              {timeZone && b.branch && (
                                <MoveSession session={s} branchId={b.branch._id} timeZone={timeZone} />
                              )}
                              <CancelSession session={s} />
                            </div>
                          )}
                        </TableCell>
                      )}
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            )}
          </QueryView>
        </TitledCard>
        <RegisterGrid batchId={batchId} />
      </div>
    </>
  );
}

type Enrolment = RouterOutputs['enrollments']['list']['items'][number];

/** Puts one of the course's enrolments in the batch, or on its waiting list when it is full. */
function AddStudent({ batch, candidates }: { batch: Batch; candidates: Enrolment[] }) {
  const queryClient = useQueryClient();
  const [enrollmentId, setEnrollmentId] = useState('');
  const join = useMutation(
    trpc.batches.join.mutationOptions({
      onSuccess: async (place) => {
        toast.success(place.status === 'member' ? 'Added to the batch.' : 'Added to the waiting list.');
        setEnrollmentId('');
        await queryClient.invalidateQueries({ queryKey: trpc.batches.pathKey() });
      },
      onError: (err) => toast.error(explainedMessage(err, 'The student was not added.')),
    }),
  );
  const full = batch.seatsTaken >= batch.capacity;
  return (
    <form
      className="mt-4 flex flex-col gap-2 sm:flex-row sm:items-end"
      onSubmit={onSubmitted(
        () => enrollmentId && join.mutate({ id: enrollmentId, batchId: batch._id, waitlist: full }),
      )}
    >
      <LabelledField id="add-student" label="Add a student from the course's enrolments" className="flex-1">
        <NativeSelect
          id="add-student"
          value={enrollmentId}
          onChange={(e) => setEnrollmentId(e.target.value)}
          empty={candidates.length ? 'Choose an enrolment' : 'No other enrolments of this course'}
          choices={candidates.map((e) => ({
            value: e._id,
            label: `${e.userId?.username ?? e.deletedUsername ?? 'Student'} — ${formatMoney(e.outstandingAmount, e.currency)} due`,
          }))}
        />
      </LabelledField>
      <Button type="submit" disabled={!enrollmentId || join.isPending}>
        {full ? 'Add to waiting list' : 'Add student'}
      </Button>
    </form>
  );
}

type SessionRow = RouterOutputs['batches']['sessions']['data'][number];

/** Cancels one session to come, with the reason the server requires. */
function CancelSession({ session }: { session: SessionRow }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const cancel = useMutation(
    trpc.classSessions.cancel.mutationOptions({
      onSuccess: async () => {
        toast.success('Session cancelled.');
        setOpen(false);
        await queryClient.invalidateQueries({ queryKey: trpc.batches.pathKey() });
      },
      onError: (err) => toast.error(explainedMessage(err, 'The session was not cancelled.')),
    }),
  );
  if (!open)
    return (
      <Button variant="outline" size="sm" onClick={() => setOpen(true)}>
        Cancel session
      </Button>
    );
  return (
    <form className="flex items-center gap-2" onSubmit={onSubmitted(() => cancel.mutate({ id: session._id, reason }))}>
      <Input
        aria-label="Reason"
        placeholder="Reason"
        value={reason}
        onChange={(e) => setReason(e.target.value)}
        className="h-8 w-40"
      />
      <Button type="submit" size="sm" variant="destructive" disabled={cancel.isPending}>
        Cancel it
      </Button>
      <Button type="button" size="sm" variant="ghost" onClick={() => setOpen(false)}>
        Keep
      </Button>
    </form>
  );
}
