import { createFileRoute } from '@tanstack/react-router';
import { AddUserPage } from '@/features/users/add-user-page';

export const Route = createFileRoute('/_admin/users/add-user')({
  component: AddUserPage,
});
