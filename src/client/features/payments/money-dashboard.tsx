import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { Bar, BarChart, CartesianGrid, XAxis, YAxis } from 'recharts';
import { QueryView } from '@/components/query-view';
import { PersonName } from '@/components/person-name';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { ChartContainer, ChartTooltip, ChartTooltipContent, type ChartConfig } from '@/components/ui/chart';
import { WRAP } from '@/components/data-list';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { AppointmentFigures } from '@/features/dashboard/appointment-figures';
import { PALETTE, StatCard } from '@/features/reports/stat-card';
import { trpc, type RouterOutputs } from '@/lib/trpc';
import { formatCount, formatDay, formatMoney } from '@shared/format';
import { BranchSelect, MoneyList } from './payment-common';
import { LabelledField } from '@/components/labelled-field';

/** docs/payments.md#dashboard: money at a glance, refreshed every 30 seconds. */
export function MoneyDashboard() {
  const [branchId, setBranchId] = useState('');
  const dash = useQuery({
    ...trpc.payments.dashboard.queryOptions({ branchId: branchId || undefined }),
    refetchInterval: 30_000,
  });

  return (
    <section aria-label="Money at a glance" className="mt-6 space-y-4" data-testid="money-dashboard">
      <div className="flex flex-wrap items-end gap-3">
        <LabelledField id="dashboard-branch" label="Branch" className="w-64">
          <BranchSelect id="dashboard-branch" value={branchId} onChange={setBranchId} />
        </LabelledField>
      </div>
      <AppointmentFigures branchId={branchId} />
      <QueryView query={dash} placeholder="h-40 w-full">
        {(data) => <DashboardBody data={data} />}
      </QueryView>
    </section>
  );
}

type Dash = RouterOutputs['payments']['dashboard'];

const counted = (items: { count: number }[]) => items.reduce((s, i) => s + i.count, 0);

/** One figure of the dashboard per currency; none at all reads as zero. */
function MoneyStat({
  testId,
  title,
  items,
  hint,
}: {
  testId: string;
  title: string;
  items: Array<{ currency: string; amount: number }>;
  hint?: string;
}) {
  return (
    <div data-testid={testId}>
      <StatCard title={title} value={<MoneyList items={items} empty={formatMoney(0)} />} hint={hint} />
    </div>
  );
}

function DashboardBody({ data }: { data: Dash }) {
  const currencies = [...new Set(data.monthly.flatMap((m) => m.amounts.map((a) => a.currency)))];
  const chartConfig: ChartConfig = Object.fromEntries(
    currencies.map((c, i) => [c, { label: c, color: PALETTE[i % PALETTE.length] }]),
  );
  const chartData = data.monthly.map((m) => ({
    month: m.month,
    ...Object.fromEntries(m.amounts.map((a) => [a.currency, a.amount])),
  }));
  const overdueCount = counted(data.overdue);
  return (
    <>
      {/* Five in a row only where each card still holds an amount on one line. */}
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3 2xl:grid-cols-5">
        <MoneyStat testId="collected-today" title="Collected today" items={data.collectedToday} />
        <MoneyStat testId="collected-month" title="Collected this month" items={data.collectedThisMonth} />
        <MoneyStat testId="outstanding" title="Outstanding" items={data.outstanding} />
        <MoneyStat
          testId="overdue"
          title="Overdue"
          items={data.overdue.filter((o) => o.amount > 0)}
          hint={`${formatCount(overdueCount)} overdue ${overdueCount === 1 ? 'item' : 'items'}`}
        />
        <MoneyStat
          testId="due-7-days"
          title="Due in the next 7 days"
          items={data.dueNext7Days.filter((o) => o.amount > 0)}
          hint={`${formatCount(counted(data.dueNext7Days))} due`}
        />
      </div>
      {/* Side by side only where the overdue table keeps its four columns in half the width. */}
      <div className="grid gap-4 2xl:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>Collected, last 12 months</CardTitle>
          </CardHeader>
          <CardContent>
            {currencies.length === 0 ? (
              <p className="text-sm text-muted-foreground">No payments in the last 12 months.</p>
            ) : (
              <ChartContainer config={chartConfig} className="max-h-64 w-full" data-testid="collected-chart">
                <BarChart data={chartData}>
                  <CartesianGrid vertical={false} />
                  <XAxis dataKey="month" tickLine={false} axisLine={false} />
                  <YAxis tickLine={false} axisLine={false} />
                  <ChartTooltip content={<ChartTooltipContent />} />
                  {currencies.map((c) => (
                    <Bar key={c} dataKey={c} fill={`var(--color-${c})`} radius={4} isAnimationActive={false} />
                  ))}
                </BarChart>
              </ChartContainer>
            )}
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Most overdue accounts</CardTitle>
          </CardHeader>
          <CardContent>
            {data.mostOverdue.length === 0 ? (
              <p className="text-sm text-muted-foreground">Nothing is overdue.</p>
            ) : (
              <Table aria-label="Most overdue accounts">
                <TableHeader>
                  <TableRow>
                    <TableHead>Payer</TableHead>
                    <TableHead>For</TableHead>
                    <TableHead>Oldest due</TableHead>
                    <TableHead className="text-right">Overdue</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {data.mostOverdue.map((o) => (
                    <TableRow key={`${o.kind}-${o.id}-${o.currency}`} data-testid="overdue-account">
                      {/* A long payer name wraps in its cell rather than scroll the half-width card sideways. */}
                      <TableCell className={WRAP}>
                        {o.kind === 'booking' ? (
                          <Link to="/booking-details/$id" params={{ id: o.id }} className="underline">
                            <PersonName fullName={o.payerFullName} handle={o.payer} />
                          </Link>
                        ) : (
                          // The details screen reads the enrolment by its id; the course id in its URL is informational.
                          <Link
                            to="/courses/$courseId/enrollment/$enrollmentId"
                            params={{ courseId: 'course', enrollmentId: o.id }}
                            className="underline"
                          >
                            <PersonName fullName={o.payerFullName} handle={o.payer} />
                          </Link>
                        )}
                      </TableCell>
                      <TableCell className="whitespace-normal">{o.subject}</TableCell>
                      <TableCell>{formatDay(o.oldestDueDate)}</TableCell>
                      <TableCell className="text-right tabular-nums">{formatMoney(o.overdue, o.currency)}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            )}
          </CardContent>
        </Card>
      </div>
    </>
  );
}
