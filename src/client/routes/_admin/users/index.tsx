import { createFileRoute } from '@tanstack/react-router';
import { UsersPage } from '@/features/users/users-page';
import { usersRoute } from '@/features/users/user-queries';

export const Route = createFileRoute('/_admin/users/')({ ...usersRoute, component: UsersPage });
