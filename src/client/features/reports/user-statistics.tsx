import { useQuery } from '@tanstack/react-query';
import { FileSpreadsheetIcon, FileTextIcon } from 'lucide-react';
import { Bar, BarChart, CartesianGrid, Cell, Pie, PieChart, XAxis, YAxis } from 'recharts';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import {
  ChartContainer,
  ChartLegend,
  ChartLegendContent,
  ChartTooltip,
  ChartTooltipContent,
  type ChartConfig,
} from '@/components/ui/chart';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { trpc } from '@/lib/trpc';
import { ROLE_LABELS } from '@shared/roles';
import { PreparedFiles } from './prepared-files';
import type { UserStats } from './report-types';
import { PALETTE, StatCard, StatsError } from './stat-card';
import { useReportDownloads } from './use-report-download';

const today = () => new Date().toISOString().slice(0, 10);

export function UserStatistics() {
  const stats = useQuery(trpc.reports.userStats.queryOptions());
  const downloads = useReportDownloads();

  const actions = (
    <div className="flex gap-2">
      <Button
        variant="outline"
        size="sm"
        disabled={downloads.busy !== null}
        onClick={() =>
          downloads.start({
            label: 'User Report (Excel)',
            method: 'GET',
            path: '/api/reports/users/excel',
            fallbackName: `user_report_${today()}.xlsx`,
          })
        }
      >
        <FileSpreadsheetIcon /> Excel Report
      </Button>
      <Button
        variant="outline"
        size="sm"
        disabled={downloads.busy !== null}
        onClick={() =>
          downloads.start({
            label: 'User Report (PDF)',
            method: 'GET',
            path: '/api/reports/users/pdf',
            fallbackName: `user_report_${today()}.pdf`,
          })
        }
      >
        <FileTextIcon /> PDF Report
      </Button>
    </div>
  );

  return (
    <section className="space-y-4" aria-labelledby="user-stats-title">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="user-stats-title" className="text-xl font-semibold">
          User Statistics
        </h2>
        {actions}
      </div>
      <PreparedFiles files={downloads.files} onDownload={downloads.fetchPrepared} onDismiss={downloads.dismiss} />
      {stats.isPending ? (
        <Skeleton className="h-64 w-full" />
      ) : stats.isError ? (
        <StatsError error={stats.error} />
      ) : (
        <UserStatsBody data={stats.data.data} />
      )}
    </section>
  );
}

function UserStatsBody({ data }: { data: UserStats }) {
  // Recharts copies each entry's fields onto its SVG shape: a field named `role` became an invalid
  // ARIA role there, so the role is kept under another name.
  const roleData = data.roleCounts.map((r, i) => ({
    roleKey: r._id,
    label: ROLE_LABELS[r._id] ?? r._id,
    count: r.count,
    fill: PALETTE[i % PALETTE.length],
  }));
  const roleConfig: ChartConfig = Object.fromEntries(
    roleData.map((r) => [r.roleKey, { label: r.label, color: r.fill }]),
  );
  const branchData = data.branchCounts.map((b) => ({ name: b.branch.name, count: b.count }));
  const branchConfig: ChartConfig = { count: { label: 'Users', color: PALETTE[0] } };

  return (
    <div className="space-y-4">
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <StatCard title="Total Users" value={data.totalUsers} />
        <StatCard title="New Users (30 days)" value={data.recentUsers} />
        {roleData.map((r) => (
          <StatCard key={r.roleKey} title={r.label} value={r.count} hint={r.count === 1 ? 'user' : 'users'} />
        ))}
      </div>
      <div className="grid gap-4 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>Users by Role</CardTitle>
          </CardHeader>
          <CardContent>
            {roleData.length ? (
              <ChartContainer config={roleConfig} className="mx-auto aspect-square max-h-72" data-testid="role-chart">
                <PieChart>
                  <ChartTooltip content={<ChartTooltipContent nameKey="roleKey" hideLabel />} />
                  <Pie data={roleData} dataKey="count" nameKey="roleKey" label isAnimationActive={false}>
                    {roleData.map((r) => (
                      <Cell key={r.roleKey} fill={r.fill} />
                    ))}
                  </Pie>
                  <ChartLegend content={<ChartLegendContent nameKey="roleKey" />} />
                </PieChart>
              </ChartContainer>
            ) : (
              <p className="text-sm text-muted-foreground">No users yet.</p>
            )}
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Users by Branch</CardTitle>
          </CardHeader>
          <CardContent>
            {branchData.length ? (
              <ChartContainer config={branchConfig} className="max-h-72 w-full" data-testid="branch-chart">
                <BarChart data={branchData}>
                  <CartesianGrid vertical={false} />
                  <XAxis dataKey="name" tickLine={false} axisLine={false} />
                  <YAxis allowDecimals={false} />
                  <ChartTooltip content={<ChartTooltipContent />} />
                  <Bar dataKey="count" fill="var(--color-count)" radius={4} isAnimationActive={false} />
                </BarChart>
              </ChartContainer>
            ) : (
              <p className="text-sm text-muted-foreground">No users are assigned to a branch.</p>
            )}
          </CardContent>
        </Card>
      </div>
      <Card>
        <CardHeader>
          <CardTitle>Branch Details</CardTitle>
        </CardHeader>
        <CardContent>
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>Branch</TableHead>
                <TableHead>Location</TableHead>
                <TableHead className="text-right">Users</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {data.branchCounts.map((b) => (
                <TableRow key={b.branch._id}>
                  <TableCell>{b.branch.name}</TableCell>
                  <TableCell>{b.branch.location}</TableCell>
                  <TableCell className="text-right tabular-nums">{b.count}</TableCell>
                </TableRow>
              ))}
              {!data.branchCounts.length && (
                <TableRow>
                  <TableCell colSpan={3} className="text-muted-foreground">
                    No branch data available.
                  </TableCell>
                </TableRow>
              )}
            </TableBody>
          </Table>
        </CardContent>
      </Card>
    </div>
  );
}
