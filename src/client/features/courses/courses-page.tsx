import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { SelectFilter } from '@/components/filter-field';
import { AddLink, DeleteConfirm, RowEditActions } from '@/components/list-actions';
import { ListPage, type TableHook } from '@/components/list-page';
import { Button } from '@/components/ui/button';
import { useEditableRows } from '@/lib/use-editable-rows';
import { trpc } from '@/lib/trpc';
import { formatMoney } from '@shared/format';
import { courseList, type Course } from './course-queries';

const REQUIRED = 'Please fill all the required fields.';

/** docs/product.md#screens-and-routes, Courses table: inline edit, confirmed delete, 500px scroll, 'Rs.' with separators. */
export function CoursesPage() {
  return (
    <ListPage
      guard="table"
      list={courseList}
      names={{ record: 'course', plural: 'courses', search: 'Search by name or category' }}
      header={{ title: 'Courses', description: 'Every course with its fees and installment plan.' }}
      actions={
        <>
          <Button variant="outline" asChild>
            <Link to="/courses/AllStudentEnrollments">All Enrollments</Link>
          </Button>
          <Button variant="outline" asChild>
            <Link to="/courses/enrollment">Enroll Student</Link>
          </Button>
          <AddLink to="/courses/add-courses">Add Course</AddLink>
        </>
      }
      useTable={useCoursesTable}
    />
  );
}

const useCoursesTable: TableHook<typeof courseList> = ({ paged }) => {
  const queryClient = useQueryClient();
  const categories = useQuery(trpc.courses.categories.queryOptions());
  const rows = useEditableRows({
    noun: 'Course',
    toDraft: (c: Course) => ({
      id: c._id,
      courseName: c.courseName,
      duration: c.duration,
      category: c.category,
      totalFee: String(c.totalFee),
      admissionFee: String(c.admissionFee),
      installments: String(c.installments),
    }),
    toInput: ({ id, ...fields }) => (Object.values(fields).some((v) => !v.trim()) ? REQUIRED : { id, ...fields }),
    update: trpc.courses.update.mutationOptions,
    remove: trpc.courses.delete.mutationOptions,
    invalidate: () =>
      Promise.all([
        queryClient.invalidateQueries(trpc.courses.pathFilter()),
        queryClient.invalidateQueries(trpc.enrollments.pathFilter()),
      ]),
  });

  const money = { type: 'number', min: 0, step: '0.01', className: 'text-right' } as const;

  return {
    filters: (
      <SelectFilter
        label="Filter by category"
        all="All categories"
        options={categories.data ?? []}
        {...paged.filter('category')}
      />
    ),
    columns: [
      {
        header: 'Course Name',
        wrap: true,
        sort: 'courseName',
        className: 'font-medium',
        cell: (c) =>
          rows.input(c, 'courseName', 'Course Name', { autoFocus: true }) ?? (
            <Link to="/courses/$courseId" params={{ courseId: c._id }} className="underline-offset-4 hover:underline">
              {c.courseName}
            </Link>
          ),
      },
      {
        header: 'Category',
        wrap: true,
        sort: 'category',
        cell: (c) => rows.input(c, 'category', 'Category') ?? c.category,
      },
      {
        header: 'Duration',
        wrap: true,
        cell: (c) => rows.input(c, 'duration', 'Duration') ?? c.duration,
      },
      {
        header: 'Total Fee',
        sort: 'totalFee',
        headClassName: 'text-right',
        className: 'text-right tabular-nums',
        cell: (c) => rows.input(c, 'totalFee', 'Total Fee', money) ?? formatMoney(c.totalFee, c.currency),
      },
      {
        header: 'Admission Fee',
        headClassName: 'text-right',
        className: 'text-right tabular-nums',
        cell: (c) => rows.input(c, 'admissionFee', 'Admission Fee', money) ?? formatMoney(c.admissionFee, c.currency),
      },
      {
        header: 'Installments',
        headClassName: 'text-right',
        className: 'text-right tabular-nums',
        cell: (c) =>
          rows.input(c, 'installments', 'Installments', {
            type: 'number',
            min: 1,
            step: 1,
            className: 'w-20 text-right',
          }) ?? c.installments,
      },
      {
        header: 'Actions',
        headClassName: 'w-24 text-right',
        className: 'text-right',
        cell: (c) => <RowEditActions rows={rows} row={c} name={c.courseName} size="icon-sm" />,
      },
    ],
    dialog: (
      <DeleteConfirm
        dialog={rows.del.dialog}
        what="course"
        name={rows.del.target?.courseName}
        consequence="Its enrolments are kept with the course name."
        onConfirm={rows.del.confirm}
      />
    ),
  };
};
