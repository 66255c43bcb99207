import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { DatePicker } from '@/components/date-picker';
import { FilterField } from '@/components/filter-field';
import { NativeSelect } from '@/components/native-select';
import { Button } from '@/components/ui/button';
import { QueryView } from '@/components/query-view';
import { numeric, SimpleTable } from '@/components/simple-table';
import { TableCell, TableRow } from '@/components/ui/table';
import { trpc } from '@/lib/trpc';
import { formatDay, formatMoney } from '@shared/format';
import { BranchSelect } from './payment-common';
import { FileButtons } from '@/components/file-buttons';
import { TitledCard } from '@/components/titled-card';
import { queryString } from '@/lib/download';
import { useOrgToday } from '@/lib/org-clock';

const PAGE_SIZE = 50;
const BUCKETS = [
  ['d1_30', '1–30 days'],
  ['d31_60', '31–60 days'],
  ['d61_90', '61–90 days'],
  ['d90_plus', 'Over 90 days'],
] as const;

/**
 * Who owes money that is past due, and for how long (docs/payments.md#receivables): one row per
 * person and currency, the most overdue first, paged on the server; the files hold every row.
 */
export function Receivables() {
  const today = useOrgToday();
  // Unset until chosen, so the default follows the organisation's day once it is known.
  const [chosenAsOf, setAsOf] = useState<string>();
  const asOf = chosenAsOf ?? today;
  const [branchId, setBranchId] = useState('');
  const [courseId, setCourseId] = useState('');
  const [treatmentId, setTreatmentId] = useState('');
  const [page, setPage] = useState(1);
  const filters = {
    asOf: asOf === today ? undefined : asOf,
    branchId: branchId || undefined,
    courseId: courseId || undefined,
    treatmentId: treatmentId || undefined,
  };
  const list = useQuery({
    ...trpc.receivables.list.queryOptions({ ...filters, page, limit: PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  const courses = useQuery(trpc.courses.options.queryOptions());
  const treatments = useQuery(trpc.treatments.options.queryOptions());
  const choose = (set: (v: string) => void) => (v: string) => {
    set(v);
    setPage(1);
  };
  const qs = queryString(filters);
  const pages = list.data ? Math.max(1, Math.ceil(list.data.total / PAGE_SIZE)) : 1;

  return (
    <TitledCard
      title="Receivables"
      actions={<FileButtons path="/api/reports/receivables" query={qs} what="receivables" />}
      contentClassName="space-y-4"
    >
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <FilterField label="As of">
          <DatePicker label="As of" value={asOf} max={today} onChange={choose((d) => setAsOf(d || today))} />
        </FilterField>
        <FilterField label="Branch">
          <BranchSelect value={branchId} onChange={choose(setBranchId)} />
        </FilterField>
        <FilterField label="Course">
          <NativeSelect
            value={courseId}
            onChange={(e) => choose(setCourseId)(e.target.value)}
            aria-label="Course"
            empty="All courses"
            choices={(courses.data ?? []).map((c) => ({ value: c._id, label: c.courseName }))}
          />
        </FilterField>
        <FilterField label="Treatment">
          <NativeSelect
            value={treatmentId}
            onChange={(e) => choose(setTreatmentId)(e.target.value)}
            aria-label="Treatment"
            empty="All treatments"
            choices={(treatments.data ?? []).map((t) => ({ value: t._id, label: t.treatmentName }))}
          />
        </FilterField>
      </div>
      <QueryView query={list} placeholder="h-40 w-full">
        {(receivables) => (
          <>
            <div className="grid gap-2 text-sm sm:grid-cols-2" data-testid="receivables-totals">
              {receivables.totals.length === 0 && <p className="text-muted-foreground">Nothing is overdue.</p>}
              {receivables.totals.map((t) => (
                <div key={t.currency} data-currency={t.currency} className="rounded-md border p-3">
                  <p className="font-medium">
                    Overdue ({t.currency}): {formatMoney(t.total, t.currency)}
                  </p>
                  <p className="text-muted-foreground">
                    {BUCKETS.map(([k, label]) => `${label}: ${formatMoney(t.buckets[k], t.currency)}`).join(' · ')}
                  </p>
                </div>
              ))}
            </div>
            <SimpleTable
              label="Receivables"
              heads={['Person', 'Phone', ...BUCKETS.map(([, label]) => numeric(label)), numeric('Total'), 'Oldest due']}
              rows={receivables.data}
              empty="Nobody owes anything past due."
            >
              {(r) => (
                <TableRow key={`${r.person._id ?? r.person.fullName}-${r.currency}`} data-testid="receivable-row">
                  <TableCell className="min-w-40 break-words whitespace-normal">
                    {r.person._id ? (
                      // The person's statement: the user details page's Statement tab.
                      <Link
                        to="/users/$userId"
                        params={{ userId: r.person._id }}
                        search={{ tab: 'statement' }}
                        className="underline-offset-4 hover:underline"
                      >
                        {r.person.fullName}
                      </Link>
                    ) : (
                      r.person.fullName
                    )}
                  </TableCell>
                  <TableCell>{r.person.phone ?? '—'}</TableCell>
                  {BUCKETS.map(([k]) => (
                    <TableCell key={k} className="text-right tabular-nums">
                      {r.buckets[k] ? formatMoney(r.buckets[k], r.currency) : '—'}
                    </TableCell>
                  ))}
                  <TableCell className="text-right font-medium tabular-nums">
                    {formatMoney(r.total, r.currency)}
                  </TableCell>
                  <TableCell>{formatDay(r.oldestDue)}</TableCell>
                </TableRow>
              )}
            </SimpleTable>
            <div className="flex items-center justify-between gap-2 text-sm">
              <span className="text-muted-foreground">
                Page {page} of {pages} ({receivables.total} rows)
              </span>
              <div className="flex gap-2">
                <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => setPage(page - 1)}>
                  Previous
                </Button>
                <Button variant="outline" size="sm" disabled={page >= pages} onClick={() => setPage(page + 1)}>
                  Next
                </Button>
              </div>
            </div>
          </>
        )}
      </QueryView>
    </TitledCard>
  );
}
