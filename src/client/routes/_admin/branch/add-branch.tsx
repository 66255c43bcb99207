import { createFileRoute } from '@tanstack/react-router';
import { AddBranchPage } from '@/features/branches/add-branch-page';

export const Route = createFileRoute('/_admin/branch/add-branch')({
  component: AddBranchPage,
});
