import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { DateRangeFilter, FilterField } from '@/components/filter-field';
import { QueryView } from '@/components/query-view';
import { numeric, SimpleTable } from '@/components/simple-table';
import { TableCell, TableRow } from '@/components/ui/table';
import { trpc } from '@/lib/trpc';
import { formatMoney } from '@shared/format';
import { ADJUSTMENT_KIND_LABELS } from '@shared/adjustment-kinds';
import { BranchSelect, MoneyList, PAYMENT_METHOD_LABELS } from '@/features/payments/payment-common';
import { StatCard } from './stat-card';
import { useOrgToday } from '@/lib/org-clock';

/** 2026-11 as "Nov 2026". */
const monthName = (ym: string) =>
  new Date(`${ym}-01T12:00:00`).toLocaleDateString('en-GB', { month: 'short', year: 'numeric' });

/** Per-currency sums of rows that may repeat a currency (several methods). */
function byCurrency(rows: Array<{ currency: string; amount: number }>) {
  const sums = new Map<string, number>();
  for (const r of rows) sums.set(r.currency, Math.round(((sums.get(r.currency) ?? 0) + r.amount) * 100) / 100);
  return [...sums].map(([currency, amount]) => ({ currency, amount }));
}

/**
 * Reports → Discounts, scholarships and refunds (docs/reports.md#discounts-refunds-and-net): what
 * was collected, refunded and kept (net) in the period, the discounts, scholarships and write-offs
 * in force by month, branch, kind, scheme and reason, and the refunds by month, branch and method.
 * Every figure is a SQL aggregate on the server (the cash-up and `adjustments.summary`).
 */
export function MoneyChangesReport() {
  const today = useOrgToday();
  // Unset until chosen (null: cleared), so the defaults follow the organisation's day once it is known.
  const [chosenFrom, setFrom] = useState<string | null | undefined>();
  const [chosenTo, setTo] = useState<string | null | undefined>();
  const from = chosenFrom === undefined ? `${today.slice(0, 8)}01` : (chosenFrom ?? undefined);
  const to = chosenTo === undefined ? today : (chosenTo ?? undefined);
  const [branchId, setBranchId] = useState('');
  const input = { from, to, branchId: branchId || undefined };
  const summary = useQuery(trpc.adjustments.summary.queryOptions(input));
  const cash = useQuery(trpc.payments.cashUp.queryOptions(input));
  return (
    <section id="money-changes" className="min-w-0 space-y-4" aria-labelledby="money-changes-title">
      <div>
        <h2 id="money-changes-title" className="text-xl font-semibold">
          Discounts, scholarships and refunds
        </h2>
        <p className="text-sm text-muted-foreground">Money that changed after the fact, and what was kept.</p>
      </div>
      <div className="flex flex-wrap items-end gap-3">
        <DateRangeFilter
          from={{ value: from, onChange: (d) => setFrom(d ?? null) }}
          to={{ value: to, onChange: (d) => setTo(d ?? null) }}
        />
        <FilterField label="Branch" className="w-44">
          <BranchSelect value={branchId} onChange={setBranchId} />
        </FilterField>
      </div>
      <QueryView query={cash} placeholder="h-24 w-full">
        {(cashUp) => (
          <div className="grid gap-4 sm:grid-cols-3" data-testid="net-collected">
            <StatCard title="Collected" value={<MoneyList items={cashUp.totals} empty={formatMoney(0)} />} />
            <StatCard
              title="Refunded"
              value={<MoneyList items={byCurrency(cashUp.refunds)} empty={formatMoney(0)} />}
            />
            <StatCard
              title="Net collected"
              value={<MoneyList items={byCurrency(cashUp.net)} empty={formatMoney(0)} />}
            />
          </div>
        )}
      </QueryView>
      <QueryView query={summary} placeholder="h-40 w-full">
        {(changes) => (
          // min-w-0: a wide table scrolls inside its box instead of widening the page on a phone.
          <div className="grid min-w-0 gap-6 2xl:grid-cols-2">
            <div className="min-w-0 space-y-2">
              <h3 className="font-medium">Discounts and scholarships given</h3>
              <SimpleTable
                label="Discounts and scholarships given"
                heads={['Month', 'Branch', 'Kind', 'Reason', numeric('Count'), numeric('Amount')]}
                rows={changes.adjustments}
                empty="None in this period."
              >
                {(a, i) => (
                  <TableRow key={i} data-testid="adjustment-report-row">
                    <TableCell>{monthName(a.month)}</TableCell>
                    <TableCell className="whitespace-normal">{a.branch?.name ?? 'No branch'}</TableCell>
                    <TableCell className="whitespace-normal">
                      {ADJUSTMENT_KIND_LABELS[a.kind]}
                      {a.scheme && <span className="block text-xs text-muted-foreground">{a.scheme}</span>}
                    </TableCell>
                    <TableCell className="min-w-32 whitespace-normal [overflow-wrap:anywhere]">{a.reason}</TableCell>
                    <TableCell className="text-right tabular-nums">{a.count}</TableCell>
                    <TableCell className="text-right tabular-nums">{formatMoney(a.amount, a.currency)}</TableCell>
                  </TableRow>
                )}
              </SimpleTable>
            </div>
            <div className="min-w-0 space-y-2">
              <h3 className="font-medium">Refunds by method and branch</h3>
              <SimpleTable
                label="Refunds by method and branch"
                heads={['Month', 'Branch', 'Method', numeric('Count'), numeric('Amount')]}
                rows={changes.refunds}
                empty="No refunds in this period."
              >
                {(r, i) => (
                  <TableRow key={i} data-testid="refund-report-row">
                    <TableCell>{monthName(r.month)}</TableCell>
                    <TableCell className="whitespace-normal">{r.branch?.name ?? 'No branch'}</TableCell>
                    <TableCell>{PAYMENT_METHOD_LABELS[r.method]}</TableCell>
                    <TableCell className="text-right tabular-nums">{r.count}</TableCell>
                    <TableCell className="text-right tabular-nums">{formatMoney(r.amount, r.currency)}</TableCell>
                  </TableRow>
                )}
              </SimpleTable>
            </div>
          </div>
        )}
      </QueryView>
    </section>
  );
}
