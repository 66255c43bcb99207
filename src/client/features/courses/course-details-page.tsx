import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { ArrowLeftIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { LoadError } from '@/components/load-error';
import { PageHeader } from '@/components/page-header';
import { RequireRole, STAFF_ROLES } from '@/components/require-role';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { trpc } from '@/lib/trpc';
import { formatDate, formatMoney } from '@shared/format';
import { HistoryPanel } from '@/features/audit/history-panel';

/** One course's details, and for admins its History (docs/audit.md#reading-it). */
export function CourseDetailsPage({ courseId }: { courseId: string }) {
  return (
    <div>
      <PageHeader
        title="Course details"
        actions={
          <Button variant="outline" asChild>
            <Link to="/courses">
              <ArrowLeftIcon /> All Courses
            </Link>
          </Button>
        }
      />
      <RequireRole roles={STAFF_ROLES}>
        <CourseDetails courseId={courseId} />
        <HistoryPanel entityType="course" entityId={courseId} />
      </RequireRole>
    </div>
  );
}

function CourseDetails({ courseId }: { courseId: string }) {
  const course = useQuery(trpc.courses.get.queryOptions({ id: courseId }));
  if (course.isError) return <LoadError error={course.error} onRetry={() => void course.refetch()} />;
  if (course.isPending) return <Skeleton className="h-48 w-full max-w-4xl" />;
  const c = course.data;
  return (
    <Card className="max-w-4xl">
      <CardContent>
        <dl className="grid grid-cols-[max-content_1fr] gap-x-6 gap-y-2 text-sm">
          <Field label="Course name">
            <span className="font-medium">{c.courseName}</span>
          </Field>
          <Field label="Category">{c.category}</Field>
          <Field label="Duration">{c.duration}</Field>
          <Field label="Total fee">{formatMoney(c.totalFee, c.currency)}</Field>
          <Field label="Admission fee">{formatMoney(c.admissionFee, c.currency)}</Field>
          <Field label="Installments">{c.installments}</Field>
          <Field label="Description">{c.description ?? '—'}</Field>
          <Field label="Created">{formatDate(c.createdAt)}</Field>
        </dl>
      </CardContent>
    </Card>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="break-words whitespace-pre-line">{children}</dd>
    </>
  );
}
