import type { QueryClient } from '@tanstack/react-query';
import { trpc, type RouterOutputs } from '@/lib/trpc';
import { LIVE_STATUSES, type AppointmentStatus } from '@shared/schemas/appointments';
import { useOrgClock } from '@/lib/org-clock';

export type Appointment = RouterOutputs['appointments']['list']['data'][number];
export type TodayAppointment = RouterOutputs['appointments']['today']['data'][number];

export const STATUS_LABELS: Record<AppointmentStatus, string> = {
  scheduled: 'Scheduled',
  confirmed: 'Confirmed',
  arrived: 'Arrived',
  completed: 'Completed',
  cancelled: 'Cancelled',
  no_show: 'No-show',
};

/** The verb on a button that moves an appointment to that status. */
export const STATUS_ACTIONS: Record<AppointmentStatus, string> = {
  scheduled: 'Schedule',
  confirmed: 'Confirm',
  arrived: 'Check in',
  completed: 'Complete',
  cancelled: 'Cancel appointment',
  no_show: 'No-show',
};

/** Still holding a session: it can be moved, and its customer is expected. */
export const isLive = (s: AppointmentStatus) => (LIVE_STATUSES as readonly AppointmentStatus[]).includes(s);

/** The organisation's zone and today, as the server reads them (lib/org-clock). */
export const useClock = useOrgClock;

/** After any appointment change: the calendar, Today, the dashboard and the booking's own card. */
export async function invalidateAppointments(queryClient: QueryClient) {
  await Promise.all([
    queryClient.invalidateQueries(trpc.appointments.pathFilter()),
    queryClient.invalidateQueries(trpc.bookings.pathFilter()),
  ]);
}

/** 'HH:mm' of an instant in the zone. */
export function timeIn(timeZone: string, iso: string): string {
  return new Date(iso).toLocaleTimeString('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
}
