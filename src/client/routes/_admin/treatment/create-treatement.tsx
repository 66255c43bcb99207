import { createFileRoute } from '@tanstack/react-router';
import { CreateTreatmentPage } from '@/features/treatments/create-treatment-page';

export const Route = createFileRoute('/_admin/treatment/create-treatement')({
  component: CreateTreatmentPage,
});
