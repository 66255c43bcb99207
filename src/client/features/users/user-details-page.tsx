import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { ArrowLeftIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { LoadError } from '@/components/load-error';
import { PageHeader } from '@/components/page-header';
import { RequireRole, STAFF_ROLES } from '@/components/require-role';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { UserAvatar } from '@/components/user-avatar';
import { trpc } from '@/lib/trpc';
import { formatDate } from '@shared/format';
import { ROLE_LABELS } from '@shared/roles';
import { HistoryPanel } from '@/features/audit/history-panel';

/** One user's details, and for admins the user's History (docs/audit.md#reading-it). */
export function UserDetailsPage({ userId }: { userId: string }) {
  return (
    <div>
      <PageHeader
        title="User details"
        actions={
          <Button variant="outline" asChild>
            <Link to="/users">
              <ArrowLeftIcon /> All Users
            </Link>
          </Button>
        }
      />
      <RequireRole roles={STAFF_ROLES}>
        <UserDetails userId={userId} />
        <HistoryPanel entityType="user" entityId={userId} />
      </RequireRole>
    </div>
  );
}

function UserDetails({ userId }: { userId: string }) {
  const user = useQuery(trpc.users.get.queryOptions({ id: userId }));
  if (user.isError) return <LoadError error={user.error} onRetry={() => void user.refetch()} />;
  if (user.isPending) return <Skeleton className="h-48 w-full max-w-4xl" />;
  const u = user.data;
  return (
    <Card className="max-w-4xl">
      <CardContent className="flex flex-wrap gap-6">
        <UserAvatar user={u} className="size-20 rounded-full" />
        <dl className="grid flex-1 grid-cols-[max-content_1fr] gap-x-6 gap-y-2 text-sm">
          <Field label="Username">
            <span data-testid="user-username">{u.username}</span>
          </Field>
          <Field label="Full name">{u.fullName}</Field>
          <Field label="Email">{u.email}</Field>
          <Field label="Role">
            <Badge variant="secondary" data-testid="user-role">
              {ROLE_LABELS[u.role]}
            </Badge>
          </Field>
          <Field label="Branch">{u.branch?.name ?? '—'}</Field>
          <Field label="Phone">{u.phone ?? '—'}</Field>
          <Field label="Address">{u.address ?? '—'}</Field>
          <Field label="Created">{formatDate(u.createdAt)}</Field>
        </dl>
      </CardContent>
    </Card>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="break-words">{children}</dd>
    </>
  );
}
