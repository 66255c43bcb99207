import { createFileRoute } from '@tanstack/react-router';
import { BranchListPage } from '@/features/branches/branch-list-page';
import { branchList } from '@/features/branches/branch-queries';

export const Route = createFileRoute('/_admin/branch/')({ ...branchList.route, component: BranchListPage });
