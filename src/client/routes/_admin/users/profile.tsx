import { createFileRoute } from '@tanstack/react-router';
import { ProfilePage } from '@/features/users/profile-page';

export const Route = createFileRoute('/_admin/users/profile')({
  component: ProfilePage,
});
