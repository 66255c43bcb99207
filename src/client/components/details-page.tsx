import { useQuery, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';
import { Link, type LinkProps } from '@tanstack/react-router';
import { ArrowLeftIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { LoadError } from '@/components/load-error';
import { PageHeader } from '@/components/page-header';
import { RequireRole, STAFF_ROLES } from '@/components/require-role';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { HistoryPanel } from '@/features/audit/history-panel';

/** The outlined "back to the list" link of a detail screen's header. */
export function BackLink({ to, children }: { to: LinkProps['to']; children: ReactNode }) {
  return (
    <Button variant="outline" asChild>
      <Link to={to}>
        <ArrowLeftIcon /> {children}
      </Link>
    </Button>
  );
}

/** Each record screen's title, its way back to the list, and its size while it loads. */
const FRAMES = {
  user: { title: 'User details', back: '/users', backLabel: 'All Users', skeleton: 'h-48' },
  course: { title: 'Course details', back: '/courses', backLabel: 'All Courses', skeleton: 'h-48' },
  enrollment: {
    title: 'Student Enrollment Details',
    back: '/courses/AllStudentEnrollments',
    backLabel: 'All Enrollments',
    skeleton: 'h-64',
  },
} as const satisfies Record<string, { title: string; back: LinkProps['to']; backLabel: string; skeleton: string }>;

/**
 * One record's screen for staff: the title with its way back, the record read by `query` (its
 * error with a retry, or a skeleton, until it is there), and for admins its History
 * (docs/audit.md#reading-it). The query runs only for the roles that may read it.
 */
export function DetailsPage<T, E, K extends QueryKey>({
  entity,
  id,
  query,
  children,
}: {
  entity: keyof typeof FRAMES;
  id: string;
  query: UseQueryOptions<T, E, T, K>;
  children: (record: T) => ReactNode;
}) {
  const frame = FRAMES[entity];
  return (
    <div>
      <PageHeader title={frame.title} actions={<BackLink to={frame.back}>{frame.backLabel}</BackLink>} />
      <RequireRole roles={STAFF_ROLES}>
        <LoadedRecord query={query} skeleton={frame.skeleton}>
          {children}
        </LoadedRecord>
        <HistoryPanel entityType={entity} entityId={id} />
      </RequireRole>
    </div>
  );
}

function LoadedRecord<T, E, K extends QueryKey>({
  query: options,
  skeleton,
  children,
}: {
  query: UseQueryOptions<T, E, T, K>;
  skeleton: string;
  children: (record: T) => ReactNode;
}) {
  const query = useQuery(options);
  if (query.isError) return <LoadError error={query.error} onRetry={() => void query.refetch()} />;
  if (query.isPending) return <Skeleton className={`${skeleton} w-full max-w-4xl`} />;
  return children(query.data);
}
