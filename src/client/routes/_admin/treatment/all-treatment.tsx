import { createFileRoute } from '@tanstack/react-router';
import { TreatmentsPage } from '@/features/treatments/treatments-page';
import { treatmentsRoute } from '@/features/treatments/treatment-queries';

export const Route = createFileRoute('/_admin/treatment/all-treatment')({
  ...treatmentsRoute,
  component: TreatmentsPage,
});
