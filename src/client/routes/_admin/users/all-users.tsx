import { createFileRoute } from '@tanstack/react-router';
import { UsersPage } from '@/features/users/users-page';
import { userList } from '@/features/users/user-queries';

export const Route = createFileRoute('/_admin/users/all-users')({ ...userList.route, component: UsersPage });
