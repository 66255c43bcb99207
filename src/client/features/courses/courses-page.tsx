import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { SelectFilter } from '@/components/filter-field';
import { RowEditActions } from '@/components/row-actions';
import { listPage, type TableHook } from '@/components/list-page';
import { Button } from '@/components/ui/button';
import { readWith } from '@/lib/read-draft';
import { useEditableRows } from '@/lib/use-editable-rows';
import { trpc } from '@/lib/trpc';
import { formatMoney } from '@shared/format';
import { ZUpdateCourseInput } from '@shared/schemas/courses';
import { courseList, type Course } from './course-queries';

/** The Courses header's links beside Add Course. */
const ENROLMENT_LINKS = (
  <>
    <Button variant="outline" asChild>
      <Link to="/courses/AllStudentEnrollments">All Enrollments</Link>
    </Button>
    <Button variant="outline" asChild>
      <Link to="/courses/enrollment">Enroll Student</Link>
    </Button>
  </>
);

const courseLink = (c: Course) => (
  <Link to="/courses/$courseId" params={{ courseId: c._id }} className="underline-offset-4 hover:underline">
    {c.courseName}
  </Link>
);

const useCoursesTable: TableHook<typeof courseList> = ({ paged }) => {
  const categories = useQuery(trpc.courses.categories.queryOptions());
  const rows = useEditableRows({
    noun: 'Course',
    name: (c) => c.courseName,
    toDraft: (c: Course) => ({
      id: c._id,
      courseName: c.courseName,
      duration: c.duration,
      category: c.category,
      totalFee: String(c.totalFee),
      admissionFee: String(c.admissionFee),
      installments: String(c.installments),
    }),
    toInput: readWith(ZUpdateCourseInput),
    procedures: trpc.courses,
    also: [trpc.enrollments],
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
      rows.column('courseName', 'Course Name', { sort: 'courseName', main: true, show: courseLink }),
      rows.column('category', 'Category', { sort: 'category' }),
      rows.column('duration', 'Duration'),
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
        cell: (c) => <RowEditActions rows={rows} row={c} size="icon-sm" />,
      },
    ],
    dialog: rows.deleteConfirm('Its enrolments are kept with the course name.'),
  };
};

/** docs/product.md#screens-and-routes, Courses table: inline edit, confirmed delete, 500px scroll, 'Rs.' with separators. */
export const CoursesPage = listPage(courseList, useCoursesTable, { actions: ENROLMENT_LINKS });
