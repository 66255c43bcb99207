import { createFileRoute } from '@tanstack/react-router';
import { CalendarPage } from '@/features/appointments/calendar-page';

export const Route = createFileRoute('/_admin/calendar/')({ component: CalendarPage });
