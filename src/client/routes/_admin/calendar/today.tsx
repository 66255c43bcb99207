import { createFileRoute } from '@tanstack/react-router';
import { TodayPage } from '@/features/appointments/today-page';

export const Route = createFileRoute('/_admin/calendar/today')({ component: TodayPage });
