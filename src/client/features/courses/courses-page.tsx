import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { PlusIcon } from 'lucide-react';
import { toast } from 'sonner';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { DataList } from '@/components/data-list';
import { PageHeader } from '@/components/page-header';
import { RequireRole, STAFF_ROLES } from '@/components/require-role';
import { EditableRowActions } from '@/components/row-actions';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { usePagedList } from '@/lib/use-paged-list';
import { useConfirmedDelete, useInlineEdit } from '@/lib/use-row-mutations';
import { trpc } from '@/lib/trpc';
import { formatMoney } from '@shared/format';
import { useUrlSearch } from '@/lib/list-route';
import {
  COURSE_PAGE_SIZE,
  courseListOptions,
  courseSort,
  validateCourseListSearch,
  type Course,
  type CourseListSearch,
} from './course-queries';

const REQUIRED = 'Please fill all the required fields.';

interface Draft {
  id: string;
  courseName: string;
  duration: string;
  category: string;
  totalFee: string;
  admissionFee: string;
  installments: string;
}

/** docs/product.md#screens-and-routes, Courses table: inline edit, confirmed delete, 500px scroll, 'Rs.' with separators. */
export function CoursesPage() {
  const [search, onSearchChange] = useUrlSearch(validateCourseListSearch);
  return (
    <div>
      <PageHeader
        title="Courses"
        description="Every course with its fees and installment plan."
        actions={
          <>
            <Button variant="outline" asChild>
              <Link to="/courses/AllStudentEnrollments">All Enrollments</Link>
            </Button>
            <Button variant="outline" asChild>
              <Link to="/courses/enrollment">Enroll Student</Link>
            </Button>
            <Button asChild>
              <Link to="/courses/add-courses">
                <PlusIcon /> Add Course
              </Link>
            </Button>
          </>
        }
      />
      <RequireRole roles={STAFF_ROLES}>
        <CoursesTable search={search} onSearchChange={onSearchChange} />
      </RequireRole>
    </div>
  );
}

function CoursesTable({
  search,
  onSearchChange,
}: {
  search: CourseListSearch;
  onSearchChange: (next: CourseListSearch) => void;
}) {
  const queryClient = useQueryClient();
  const paged = usePagedList(courseListOptions(search), search, onSearchChange);
  const sort = courseSort(search);
  const categories = useQuery(trpc.courses.categories.queryOptions());
  const invalidate = () =>
    Promise.all([
      queryClient.invalidateQueries(trpc.courses.pathFilter()),
      queryClient.invalidateQueries(trpc.enrollments.pathFilter()),
    ]);
  const { draft, setDraft, start, cancel, update } = useInlineEdit({
    toDraft: (c: Course): Draft => ({
      id: c._id,
      courseName: c.courseName,
      duration: c.duration,
      category: c.category,
      totalFee: String(c.totalFee),
      admissionFee: String(c.admissionFee),
      installments: String(c.installments),
    }),
    mutationOptions: trpc.courses.update.mutationOptions,
    success: 'Course updated successfully!',
    failure: 'Failed to update course. Please try again.',
    invalidate,
  });
  const del = useConfirmedDelete({
    toVariables: (c: Course) => ({ id: c._id }),
    mutationOptions: trpc.courses.delete.mutationOptions,
    success: 'Course deleted successfully!',
    failure: 'Failed to delete course. Please try again.',
    invalidate,
  });

  const saveDraft = () => {
    if (!draft) return;
    const { id, ...fields } = draft;
    if (Object.values(fields).some((v) => !v.trim())) {
      toast.error(REQUIRED);
      return;
    }
    update.mutate({ id, ...fields });
  };

  const edit = (key: keyof Draft) => ({
    value: draft?.[key] ?? '',
    onChange: (e: { target: { value: string } }) => setDraft((d) => (d ? { ...d, [key]: e.target.value } : d)),
    onKeyDown: (e: { key: string }) => {
      if (e.key === 'Enter') saveDraft();
      if (e.key === 'Escape') cancel();
    },
  });

  const money = (key: 'totalFee' | 'admissionFee', label: string) => (
    <Input aria-label={label} type="number" min={0} step="0.01" className="text-right" {...edit(key)} />
  );

  return (
    <>
      <DataList
        paged={paged}
        items={paged.list.data?.items}
        sort={sort}
        searchPlaceholder="Search by name or category"
        searchLabel="Search courses"
        filters={
          <select
            aria-label="Filter by category"
            className="h-9 rounded-md border border-input bg-transparent px-2 text-sm shadow-xs"
            value={search.category ?? ''}
            onChange={(e) => paged.setFilter({ category: e.target.value || undefined })}
          >
            <option value="">All categories</option>
            {categories.data?.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        }
        label="Courses"
        empty={search.q || search.category ? 'No courses match your search.' : 'No courses found.'}
        pageSize={COURSE_PAGE_SIZE}
        rowKey={(c) => c._id}
        rowProps={(c) => ({ 'data-testid': 'course-row', 'data-course-id': c._id })}
        columns={[
          {
            header: 'Course Name',
            sort: 'courseName',
            className: 'font-medium',
            cell: (c) =>
              draft?.id === c._id ? (
                <Input aria-label="Course Name" autoFocus {...edit('courseName')} />
              ) : (
                <Link
                  to="/courses/$courseId"
                  params={{ courseId: c._id }}
                  className="underline-offset-4 hover:underline"
                >
                  {c.courseName}
                </Link>
              ),
          },
          {
            header: 'Category',
            sort: 'category',
            cell: (c) => (draft?.id === c._id ? <Input aria-label="Category" {...edit('category')} /> : c.category),
          },
          {
            header: 'Duration',
            cell: (c) => (draft?.id === c._id ? <Input aria-label="Duration" {...edit('duration')} /> : c.duration),
          },
          {
            header: 'Total Fee',
            sort: 'totalFee',
            headClassName: 'text-right',
            className: 'text-right tabular-nums',
            cell: (c) => (draft?.id === c._id ? money('totalFee', 'Total Fee') : formatMoney(c.totalFee, c.currency)),
          },
          {
            header: 'Admission Fee',
            headClassName: 'text-right',
            className: 'text-right tabular-nums',
            cell: (c) =>
              draft?.id === c._id ? money('admissionFee', 'Admission Fee') : formatMoney(c.admissionFee, c.currency),
          },
          {
            header: 'Installments',
            headClassName: 'text-right',
            className: 'text-right tabular-nums',
            cell: (c) =>
              draft?.id === c._id ? (
                <Input
                  aria-label="Installments"
                  type="number"
                  min={1}
                  step={1}
                  className="w-20 text-right"
                  {...edit('installments')}
                />
              ) : (
                c.installments
              ),
          },
          {
            header: 'Actions',
            headClassName: 'w-24 text-right',
            className: 'text-right',
            cell: (c) => (
              <EditableRowActions
                name={c.courseName}
                size="icon-sm"
                editing={draft?.id === c._id}
                onEdit={() => start(c)}
                onDelete={() => del.ask(c)}
                onSave={saveDraft}
                onCancel={cancel}
                pending={update.isPending}
              />
            ),
          },
        ]}
      />
      <ConfirmDialog
        {...del.dialog}
        description={
          <>
            Are you sure you want to delete the course{' '}
            <strong className="text-foreground">{del.target?.courseName}</strong>? Its enrolments are kept with the
            course name. This action cannot be undone.
          </>
        }
        onConfirm={del.confirm}
      />
    </>
  );
}
