import type { ReactNode } from 'react';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
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
