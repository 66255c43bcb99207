import type { ReactNode } from 'react';
import { Bar, BarChart, CartesianGrid, XAxis, YAxis } from 'recharts';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { ChartContainer, ChartTooltip, ChartTooltipContent, type ChartConfig } from '@/components/ui/chart';
import { formatCount } from '@shared/format';

export function StatCard({ title, value, hint }: { title: string; value: ReactNode; hint?: ReactNode }) {
  return (
    <Card className="gap-2 py-4">
      <CardHeader className="px-4">
        <CardTitle className="text-sm font-medium text-muted-foreground">{title}</CardTitle>
      </CardHeader>
      <CardContent className="px-4">
        <div className="text-2xl font-semibold tabular-nums">
          {typeof value === 'number' ? formatCount(value) : value}
        </div>
        {hint && <p className="mt-1 text-xs text-muted-foreground">{hint}</p>}
      </CardContent>
    </Card>
  );
}

/** docs/product.md#messages: 'Error loading statistics: {message or Unknown error}'. */
export function StatsError({ error }: { error: unknown }) {
  const message = error instanceof Error && error.message ? error.message : 'Unknown error';
  return (
    <div role="alert" className="rounded-lg border border-destructive/50 bg-destructive/5 p-4 text-sm text-destructive">
      Error loading statistics: {message}
    </div>
  );
}

/** The role pie chart's five-colour palette (docs/product.md#constants). */
export const PALETTE = ['#0088FE', '#00C49F', '#FFBB28', '#FF8042', '#8884D8'] as const;

/** A titled card over a chart or list, or the line saying there is nothing in it (`children` false). */
export function SummaryCard({ title, empty, children }: { title: string; empty: string; children: ReactNode }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
      </CardHeader>
      <CardContent>{children || <p className="text-sm text-muted-foreground">{empty}</p>}</CardContent>
    </Card>
  );
}

/** One bar per entry of `data`, its height the entry's `count`, named by its `xKey` field. */
export function CountBarChart({
  config,
  data,
  xKey,
  className,
  testId,
}: {
  config: ChartConfig;
  data: Array<{ count: number }>;
  xKey: string;
  className: string;
  testId: string;
}) {
  return (
    <ChartContainer config={config} className={className} data-testid={testId}>
      <BarChart data={data}>
        <CartesianGrid vertical={false} />
        <XAxis dataKey={xKey} tickLine={false} axisLine={false} />
        <YAxis allowDecimals={false} />
        <ChartTooltip content={<ChartTooltipContent />} />
        <Bar dataKey="count" fill="var(--color-count)" radius={4} isAnimationActive={false} />
      </BarChart>
    </ChartContainer>
  );
}
