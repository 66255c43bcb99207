import { useQuery } from '@tanstack/react-query';
import { todayIn } from '@shared/calendar';
import { trpc } from '@/lib/trpc';

/**
 * The organisation's clock (TIME_ZONE and today, as the server reads them): a day on a staff
 * screen (the cash-up's, a payment's, a report's range) is a day there, not in the browser's zone,
 * which can be a day behind or ahead around midnight. The admin layout loads it with the user.
 */
export const orgClockOptions = () => trpc.appointments.clock.queryOptions(undefined, { staleTime: 60_000 });

export function useOrgClock() {
  return useQuery(orgClockOptions());
}

/** Today ('YYYY-MM-DD') on the organisation's clock; the browser's day only until that is known. */
export function useOrgToday(): string {
  const timeZone = useOrgClock().data?.timeZone;
  return timeZone ? todayIn(timeZone) : new Date().toLocaleDateString('en-CA');
}
