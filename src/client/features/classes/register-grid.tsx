import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { QueryView } from '@/components/query-view';
import { TitledCard } from '@/components/titled-card';
import { FileButtons } from '@/components/file-buttons';
import { queryString } from '@/lib/download';
import { trpc } from '@/lib/trpc';
import { cn } from '@/lib/utils';
import { formatDay } from '@shared/format';
import { DayRangeInputs } from '@/components/day-range-inputs';

const LETTER = { present: 'P', late: 'L', absent: 'A', excused: 'E' } as const;
const TONE = {
  present: 'bg-emerald-100 text-emerald-900',
  late: 'bg-amber-100 text-amber-900',
  absent: 'bg-red-100 text-red-900',
  excused: 'bg-sky-100 text-sky-900',
} as const;
const NAME = { present: 'present', late: 'late', absent: 'absent', excused: 'excused' } as const;

/** The session's day on TIME_ZONE's clock (the server's zone, not the browser's). */
const dayIn = (timeZone: string | undefined, iso: string) => new Date(iso).toLocaleDateString('en-CA', { timeZone });

/**
 * A batch's register on the desktop (docs/classes.md#register): students down, sessions across,
 * one letter per mark, the rate at the end; the same grid as Excel or PDF for the range shown.
 */
export function RegisterGrid({ batchId }: { batchId: string }) {
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const range = { from: from || undefined, to: to || undefined };
  const register = useQuery(trpc.batches.register.queryOptions({ id: batchId, ...range }));
  const timeZone = useQuery(trpc.classSessions.clock.queryOptions()).data?.timeZone;
  const qs = queryString(range);
  return (
    <TitledCard
      title="Register"
      actions={<FileButtons path={`/api/batches/${batchId}/register`} query={qs} what="register" />}
    >
      <div className="mb-3 flex flex-wrap items-end gap-3">
        <DayRangeInputs id="register" from={from} to={to} onFrom={setFrom} onTo={setTo} />
        <p className="text-xs text-muted-foreground">P present · L late · A absent · E excused · ✕ cancelled</p>
      </div>
      <QueryView query={register} placeholder="h-32 w-full">
        {(data) => (
          <div
            className="max-h-[32rem] overflow-auto rounded border"
            tabIndex={0}
            role="region"
            aria-label="Register grid, scrollable"
          >
            <table className="border-collapse text-xs" aria-label="Register grid">
              <thead className="sticky top-0 z-10 bg-muted">
                <tr>
                  <th scope="col" className="sticky left-0 z-20 min-w-40 bg-muted px-2 py-1 text-left">
                    Student
                  </th>
                  {data.sessions.map((s) => (
                    <th
                      key={s._id}
                      scope="col"
                      className={cn(
                        'min-w-10 px-1 py-1 font-medium',
                        s.status === 'cancelled' && 'text-muted-foreground',
                      )}
                      title={s.status === 'cancelled' ? 'Cancelled' : undefined}
                    >
                      {formatDay(dayIn(timeZone, s.start)).replace(/ \d{4}$/, '')}
                    </th>
                  ))}
                  <th scope="col" className="px-2 py-1 text-right">
                    Rate
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.students.map((st) => (
                  <tr key={st.enrollmentId} className="border-t">
                    <th scope="row" className="sticky left-0 bg-background px-2 py-1 text-left font-normal">
                      {st.student.fullName}
                    </th>
                    {st.marks.map((m, i) => {
                      const cancelled = data.sessions[i]!.status === 'cancelled';
                      return (
                        <td
                          key={data.sessions[i]!._id}
                          className={cn(
                            'px-1 py-1 text-center',
                            m && TONE[m],
                            cancelled && 'bg-muted text-muted-foreground',
                          )}
                          aria-label={cancelled ? 'cancelled' : m ? NAME[m] : 'not marked'}
                        >
                          {cancelled ? '✕' : m ? LETTER[m] : ''}
                        </td>
                      );
                    })}
                    <td className="px-2 py-1 text-right tabular-nums">
                      {st.rate === null ? '—' : `${st.rate.toFixed(1)} %`}
                    </td>
                  </tr>
                ))}
                {data.students.length === 0 && (
                  <tr>
                    <td colSpan={data.sessions.length + 2} className="px-2 py-3 text-muted-foreground">
                      No students on this register yet.
                    </td>
                  </tr>
                )}
              </tbody>
            </table>
          </div>
        )}
      </QueryView>
    </TitledCard>
  );
}
