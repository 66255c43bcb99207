import { createFileRoute } from '@tanstack/react-router';
import { TreatmentsPage } from '@/features/treatments/treatments-page';

export const Route = createFileRoute('/_admin/treatment/all-treatment')({
  component: TreatmentsPage,
});
