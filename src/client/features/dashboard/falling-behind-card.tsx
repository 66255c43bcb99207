import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { QueryView } from '@/components/query-view';
import { TitledCard } from '@/components/titled-card';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { trpc } from '@/lib/trpc';
import { formatMoney } from '@shared/format';

/** How many rows the card shows; the rest are counted under it. */
const SHOWN = 8;

/**
 * Falling behind (docs/classes.md#falling-behind): students under the attendance threshold or
 * absent three sessions in a row, with what they still owe on the same enrolment.
 */
export function FallingBehindCard() {
  const list = useQuery(trpc.attendance.fallingBehind.queryOptions({}));
  return (
    <section className="mt-6" aria-labelledby="falling-behind-title">
      <TitledCard title={<span id="falling-behind-title">Falling behind</span>}>
        <QueryView
          query={list}
          placeholder="h-24 w-full"
          empty={(d) =>
            d.data.length === 0 && (
              <>No student is under {d.threshold} % attendance or absent three sessions in a row.</>
            )
          }
        >
          {(d) => (
            <>
              <p className="mb-2 text-sm text-muted-foreground">
                Under {d.threshold} % attendance, or absent three sessions in a row.
              </p>
              <div className="overflow-x-auto">
                <Table aria-label="Falling behind">
                  <TableHeader>
                    <TableRow>
                      <TableHead>Student</TableHead>
                      <TableHead>Batch</TableHead>
                      <TableHead className="text-right">Rate</TableHead>
                      <TableHead className="text-right">Absent in a row</TableHead>
                      <TableHead className="text-right">Owes</TableHead>
                    </TableRow>
                  </TableHeader>
                  <TableBody>
                    {d.data.slice(0, SHOWN).map((r) => (
                      <TableRow key={r.enrollmentId}>
                        <TableCell>{r.student.fullName}</TableCell>
                        <TableCell>
                          <Link to="/batches/$batchId" params={{ batchId: r.batch._id }} className="underline">
                            {r.batch.name}
                          </Link>
                        </TableCell>
                        <TableCell className="text-right tabular-nums">
                          {r.rate === null ? '—' : `${r.rate.toFixed(1)} %`}
                        </TableCell>
                        <TableCell className="text-right tabular-nums">{r.absentInARow}</TableCell>
                        <TableCell className="text-right tabular-nums">
                          {r.outstanding.length
                            ? r.outstanding.map((o) => formatMoney(o.amount, o.currency)).join(', ')
                            : 'Nothing'}
                        </TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              </div>
              {d.data.length > SHOWN && (
                <p className="mt-2 text-sm text-muted-foreground">and {d.data.length - SHOWN} more.</p>
              )}
            </>
          )}
        </QueryView>
      </TitledCard>
    </section>
  );
}
