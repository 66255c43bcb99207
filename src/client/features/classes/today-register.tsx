import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { ArrowLeftIcon } from 'lucide-react';
import { toast } from 'sonner';
import { LoadError } from '@/components/load-error';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { explainedMessage } from '@/lib/errors';
import { trpc, type RouterOutputs } from '@/lib/trpc';
import { cn } from '@/lib/utils';
import type { AttendanceMark } from '@shared/schemas/classes';

type Session = RouterOutputs['classSessions']['day']['data'][number];

const MARKS: Array<{ value: AttendanceMark; label: string; on: string }> = [
  { value: 'present', label: 'Present', on: 'bg-emerald-600 text-white border-emerald-600' },
  { value: 'late', label: 'Late', on: 'bg-amber-500 text-white border-amber-500' },
  { value: 'absent', label: 'Absent', on: 'bg-red-600 text-white border-red-600' },
  { value: 'excused', label: 'Excused', on: 'bg-sky-600 text-white border-sky-600' },
];

/** A time on TIME_ZONE's clock (the server's zone, not the phone's). */
const hhmm = (iso: string, timeZone: string | undefined) =>
  new Date(iso).toLocaleTimeString('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
const useTimeZone = () => useQuery({ ...trpc.classSessions.clock.queryOptions(), staleTime: Infinity }).data?.timeZone;

/**
 * Take attendance (docs/classes.md#attendance), built for a phone at 390 px: today's class
 * sessions of the caller (every session in their branch scope for staff, the ones they teach for
 * an instructor), then one session's register as a list of names with one tap per mark.
 */
export function TodayRegister({ sessionId }: { sessionId?: string }) {
  return (
    <main className="mx-auto w-full max-w-md px-3 py-4">
      {sessionId ? <Register sessionId={sessionId} /> : <TodaysSessions />}
    </main>
  );
}

function TodaysSessions() {
  const day = useQuery(trpc.classSessions.day.queryOptions({}));
  return (
    <>
      <h1 className="mb-3 text-xl font-semibold">Today&apos;s classes</h1>
      {day.isError ? (
        <LoadError error={day.error} onRetry={() => void day.refetch()} />
      ) : day.isPending ? (
        <Skeleton className="h-32 w-full" />
      ) : day.data.data.length === 0 ? (
        <p className="text-muted-foreground">No class sessions today.</p>
      ) : (
        <ul className="space-y-2" aria-label="Today's class sessions">
          {day.data.data.map((s) => (
            <li key={s._id}>
              <SessionLink session={s} />
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

function SessionLink({ session: s }: { session: Session }) {
  const timeZone = useTimeZone();
  const body = (
    <>
      <span className="block font-medium">{s.batch.name}</span>
      <span className="block text-sm text-muted-foreground">
        {hhmm(s.start, timeZone)}–{hhmm(s.end, timeZone)}
        {s.room ? ` · ${s.room.name}` : ''}
        {s.instructor ? ` · ${s.instructor.fullName}` : ''}
      </span>
    </>
  );
  if (s.status === 'cancelled')
    return (
      <div className="rounded-lg border p-3 opacity-60">
        {body}
        <Badge variant="secondary" className="mt-1">
          Cancelled{s.reason ? `: ${s.reason}` : ''}
        </Badge>
      </div>
    );
  return (
    <Link
      to="/classes/today"
      search={{ session: s._id }}
      className="block min-h-12 rounded-lg border p-3 hover:bg-accent focus-visible:ring-2"
    >
      {body}
    </Link>
  );
}

function Register({ sessionId }: { sessionId: string }) {
  const queryClient = useQueryClient();
  const register = useQuery(trpc.classSessions.attendance.queryOptions({ id: sessionId }));
  const timeZone = useTimeZone();
  const save = useMutation(
    trpc.classSessions.takeAttendance.mutationOptions({
      onSuccess: (answer) =>
        queryClient.setQueryData(trpc.classSessions.attendance.queryKey({ id: sessionId }), answer),
      onError: (err) => toast.error(explainedMessage(err, 'The mark was not saved. Please try again.')),
    }),
  );
  const back = (
    <Link to="/classes/today" search={{}} className="mb-3 inline-flex min-h-11 items-center gap-1 text-sm">
      <ArrowLeftIcon aria-hidden /> Today&apos;s classes
    </Link>
  );
  if (register.isError)
    return (
      <>
        {back}
        <LoadError error={register.error} onRetry={() => void register.refetch()} />
      </>
    );
  if (register.isPending) return <Skeleton className="h-64 w-full" />;
  const { session, marks } = register.data;
  const marked = marks.filter((m) => m.status !== null).length;
  return (
    <>
      {back}
      <h1 className="text-xl font-semibold">{session.batch.name}</h1>
      <p className="mb-3 text-sm text-muted-foreground">
        {hhmm(session.start, timeZone)}–{hhmm(session.end, timeZone)}
        {session.room ? ` · ${session.room.name}` : ''} · {marked} of {marks.length} marked
      </p>
      {session.status === 'cancelled' ? (
        <p>This session is cancelled: it takes no attendance.</p>
      ) : (
        <>
          <Button
            className="mb-3 h-12 w-full text-base"
            disabled={save.isPending || marked === marks.length}
            onClick={() => save.mutate({ id: sessionId, allPresent: true })}
          >
            All present
          </Button>
          <ul className="divide-y rounded-lg border" aria-label="Register">
            {marks.map((m) => (
              <li key={m.enrollmentId} className="p-3">
                <div className="mb-2 font-medium">{m.student.fullName}</div>
                <div role="group" aria-label={`Mark ${m.student.fullName}`} className="grid grid-cols-4 gap-1.5">
                  {MARKS.map((k) => (
                    <button
                      key={k.value}
                      type="button"
                      aria-pressed={m.status === k.value}
                      disabled={save.isPending}
                      onClick={() =>
                        save.mutate({ id: sessionId, marks: [{ enrollmentId: m.enrollmentId, status: k.value }] })
                      }
                      className={cn(
                        'h-11 rounded-md border text-sm font-medium disabled:opacity-60',
                        m.status === k.value ? k.on : 'bg-background',
                      )}
                    >
                      {k.label}
                    </button>
                  ))}
                </div>
              </li>
            ))}
            {marks.length === 0 && (
              <li className="p-3 text-muted-foreground">No students on this session&apos;s roster.</li>
            )}
          </ul>
        </>
      )}
    </>
  );
}
