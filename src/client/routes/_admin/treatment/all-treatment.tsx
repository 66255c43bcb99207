import { createFileRoute } from '@tanstack/react-router';
import { TreatmentsPage } from '@/features/treatments/treatments-page';
import { treatmentList } from '@/features/treatments/treatment-queries';

export const Route = createFileRoute('/_admin/treatment/all-treatment')({
  ...treatmentList.route,
  component: TreatmentsPage,
});
