import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { CheckIcon, PencilIcon, PlusIcon, Trash2Icon, XIcon } from 'lucide-react';
import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { LoadError } from '@/components/load-error';
import { PageHeader } from '@/components/page-header';
import { Pagination } from '@/components/pagination';
import { RequireRole, STAFF_ROLES } from '@/components/require-role';
import { SearchInput } from '@/components/search-input';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { Spinner } from '@/components/ui/spinner';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { explainedMessage } from '@/lib/errors';
import { trpc } from '@/lib/trpc';
import { formatRsList } from '../../../shared/money';
import { COURSE_PAGE_SIZE, courseListOptions, type CourseListSearch } from './course-queries';

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

const COLUMNS = 8;

/** spec section 2, Courses table: inline edit, confirmed delete, 500px scroll, 'Rs.' with separators. */
export function CoursesPage({ search, onSearchChange }: { search: CourseListSearch; onSearchChange: (next: CourseListSearch) => void }) {
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

function CoursesTable({ search, onSearchChange }: { search: CourseListSearch; onSearchChange: (next: CourseListSearch) => void }) {
  const queryClient = useQueryClient();
  const page = search.page ?? 1;
  const list = useQuery({ ...courseListOptions(search), placeholderData: keepPreviousData });
  const categories = useQuery(trpc.courses.categories.queryOptions());
  const [draft, setDraft] = useState<Draft | null>(null);
  const [toDelete, setToDelete] = useState<{ id: string; name: string } | null>(null);

  const invalidate = () => Promise.all([queryClient.invalidateQueries(trpc.courses.pathFilter()), queryClient.invalidateQueries(trpc.enrollments.pathFilter())]);

  const update = useMutation(
    trpc.courses.update.mutationOptions({
      onSuccess: async () => {
        toast.success('Course updated successfully!');
        setDraft(null);
        await invalidate();
      },
      onError: (err) => toast.error(explainedMessage(err, 'Failed to update course. Please try again.')),
    }),
  );

  const remove = useMutation(
    trpc.courses.delete.mutationOptions({
      onSuccess: async () => {
        toast.success('Course deleted successfully!');
        setToDelete(null);
        await invalidate();
      },
      onError: (err) => {
        toast.error(explainedMessage(err, 'Failed to delete course. Please try again.'));
        setToDelete(null);
      },
    }),
  );

  const items = list.data?.items;
  useEffect(() => {
    if (items && items.length === 0 && page > 1 && !list.isPlaceholderData) onSearchChange({ ...search, page: page - 1 });
  }, [items, page, list.isPlaceholderData, onSearchChange, search]);

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
      if (e.key === 'Escape') setDraft(null);
    },
  });

  return (
    <>
      <Card className="gap-4">
        <CardContent className="flex flex-wrap items-center gap-3">
          <SearchInput
            value={search.q ?? ''}
            onChange={(q) => onSearchChange({ ...search, q: q || undefined, page: undefined })}
            placeholder="Search by name or category"
            aria-label="Search courses"
          />
          <select
            aria-label="Filter by category"
            className="h-9 rounded-md border border-input bg-transparent px-2 text-sm shadow-xs"
            value={search.category ?? ''}
            onChange={(e) => onSearchChange({ ...search, category: e.target.value || undefined, page: undefined })}
          >
            <option value="">All categories</option>
            {categories.data?.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
          {list.isFetching && !list.isPending && <Spinner className="text-muted-foreground" />}
        </CardContent>
        <CardContent>
          {list.isError ? (
            <LoadError error={list.error} onRetry={() => void list.refetch()} />
          ) : (
            <>
              <Table containerClassName="max-h-[500px] overflow-y-auto rounded-md border" aria-label="Courses">
                <TableHeader className="sticky top-0 z-10 bg-background">
                  <TableRow>
                    <TableHead className="w-12">#</TableHead>
                    <TableHead>Course Name</TableHead>
                    <TableHead>Category</TableHead>
                    <TableHead>Duration</TableHead>
                    <TableHead className="text-right">Total Fee</TableHead>
                    <TableHead className="text-right">Admission Fee</TableHead>
                    <TableHead className="text-right">Installments</TableHead>
                    <TableHead className="w-24 text-right">Actions</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {list.isPending &&
                    Array.from({ length: 4 }, (_, i) => (
                      <TableRow key={i} data-testid="loading-row">
                        <TableCell colSpan={COLUMNS}>
                          <Skeleton className="h-6 w-full" />
                        </TableCell>
                      </TableRow>
                    ))}
                  {items?.length === 0 && (
                    <TableRow>
                      <TableCell colSpan={COLUMNS} className="py-10 text-center text-muted-foreground">
                        {search.q || search.category ? 'No courses match your search.' : 'No courses found.'}
                      </TableCell>
                    </TableRow>
                  )}
                  {items?.map((c, i) => {
                    const editing = draft?.id === c._id;
                    return (
                      <TableRow key={c._id} data-testid="course-row" data-course-id={c._id}>
                        <TableCell className="text-muted-foreground">{(page - 1) * COURSE_PAGE_SIZE + i + 1}</TableCell>
                        <TableCell className="font-medium">{editing ? <Input aria-label="Course Name" autoFocus {...edit('courseName')} /> : c.courseName}</TableCell>
                        <TableCell>{editing ? <Input aria-label="Category" {...edit('category')} /> : c.category}</TableCell>
                        <TableCell>{editing ? <Input aria-label="Duration" {...edit('duration')} /> : c.duration}</TableCell>
                        <TableCell className="text-right tabular-nums">
                          {editing ? <Input aria-label="Total Fee" type="number" min={0} step="0.01" className="text-right" {...edit('totalFee')} /> : formatRsList(c.totalFee)}
                        </TableCell>
                        <TableCell className="text-right tabular-nums">
                          {editing ? <Input aria-label="Admission Fee" type="number" min={0} step="0.01" className="text-right" {...edit('admissionFee')} /> : formatRsList(c.admissionFee)}
                        </TableCell>
                        <TableCell className="text-right tabular-nums">
                          {editing ? <Input aria-label="Installments" type="number" min={1} step={1} className="w-20 text-right" {...edit('installments')} /> : c.installments}
                        </TableCell>
                        <TableCell className="text-right">
                          {editing ? (
                            <div className="flex justify-end gap-2">
                              <Button size="icon-sm" onClick={saveDraft} disabled={update.isPending} aria-label="Save" title="Save">
                                {update.isPending ? <Spinner /> : <CheckIcon />}
                              </Button>
                              <Button size="icon-sm" variant="outline" onClick={() => setDraft(null)} disabled={update.isPending} aria-label="Cancel" title="Cancel">
                                <XIcon />
                              </Button>
                            </div>
                          ) : (
                            <div className="flex justify-end gap-2">
                              <Button
                                size="icon-sm"
                                variant="outline"
                                aria-label={`Edit ${c.courseName}`}
                                title="Edit"
                                onClick={() =>
                                  setDraft({
                                    id: c._id,
                                    courseName: c.courseName,
                                    duration: c.duration,
                                    category: c.category,
                                    totalFee: String(c.totalFee),
                                    admissionFee: String(c.admissionFee),
                                    installments: String(c.installments),
                                  })
                                }
                              >
                                <PencilIcon />
                              </Button>
                              <Button
                                size="icon-sm"
                                variant="outline"
                                className="text-destructive hover:text-destructive"
                                aria-label={`Delete ${c.courseName}`}
                                title="Delete"
                                onClick={() => setToDelete({ id: c._id, name: c.courseName })}
                              >
                                <Trash2Icon />
                              </Button>
                            </div>
                          )}
                        </TableCell>
                      </TableRow>
                    );
                  })}
                </TableBody>
              </Table>
              {list.data && <Pagination page={page} pageSize={COURSE_PAGE_SIZE} total={list.data.total} onPageChange={(p) => onSearchChange({ ...search, page: p > 1 ? p : undefined })} />}
            </>
          )}
        </CardContent>
      </Card>
      <ConfirmDialog
        open={toDelete !== null}
        onOpenChange={(open) => !open && setToDelete(null)}
        pending={remove.isPending}
        description={
          <>
            Are you sure you want to delete the course <strong className="text-foreground">{toDelete?.name}</strong>? Its enrolments are kept with the course name. This action cannot be undone.
          </>
        }
        onConfirm={() => toDelete && remove.mutate({ id: toDelete.id })}
      />
    </>
  );
}
