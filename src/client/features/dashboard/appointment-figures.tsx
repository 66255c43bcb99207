import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { QueryView } from '@/components/query-view';
import { StatCard } from '@/features/reports/stat-card';
import { trpc } from '@/lib/trpc';

/** docs/appointments.md#dashboard: today's appointments, arrivals, no-shows and the week's utilisation. */
export function AppointmentFigures({ branchId }: { branchId: string }) {
  const figures = useQuery({
    ...trpc.appointments.figures.queryOptions({ branchId: branchId || undefined }),
    refetchInterval: 60_000,
  });
  return (
    <section aria-labelledby="appointment-figures" className="space-y-3" data-testid="appointment-figures">
      <div className="flex items-baseline justify-between gap-2">
        <h2 id="appointment-figures" className="text-lg font-semibold">
          Appointments
        </h2>
        <Link to="/calendar/today" className="text-sm text-primary underline">
          Open Today
        </Link>
      </div>
      <QueryView query={figures} placeholder="h-24 w-full">
        {(data) => (
          <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
            <div data-testid="appointments-today">
              <StatCard title="Today's appointments" value={data.today.total} />
            </div>
            <div data-testid="appointments-arrived">
              <StatCard title="Arrived" value={data.today.arrived} hint={`${data.today.completed} completed`} />
            </div>
            <div data-testid="appointments-no-shows">
              <StatCard title="No-shows" value={data.today.noShows} hint={`${data.today.cancelled} cancelled`} />
            </div>
            <div data-testid="appointments-utilisation">
              <StatCard
                title="Utilisation this week"
                value={data.week.utilisation === null ? '–' : `${Math.round(data.week.utilisation * 100)}%`}
                hint={`${Math.round(data.week.bookedMinutes / 60)} of ${Math.round(
                  data.week.workingMinutes / 60,
                )} working hours booked`}
              />
            </div>
          </div>
        )}
      </QueryView>
    </section>
  );
}
