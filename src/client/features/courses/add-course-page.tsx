import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent, type ReactNode } from 'react';
import { toast } from 'sonner';
import { FormError, SubmitButton } from '@/components/form-feedback';
import { PageHeader } from '@/components/page-header';
import { RequireRole, STAFF_ROLES } from '@/components/require-role';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardFooter } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { explainedMessage } from '@/lib/errors';
import { trpc } from '@/lib/trpc';
import { useFormError } from '@/lib/use-form-error';

const REQUIRED = 'Please fill all the required fields.';

const EMPTY = {
  courseName: '',
  duration: '',
  totalFee: '',
  installments: '1',
  category: '',
  admissionFee: '',
  description: '',
};
type Form = typeof EMPTY;
const REQUIRED_FIELDS = ['courseName', 'duration', 'totalFee', 'installments', 'category', 'admissionFee'] as const;

/** docs/product.md#screens-and-routes, Add New Course: six required fields; on success back to /courses. */
export function AddCoursePage() {
  return (
    <div>
      <PageHeader title="Add New Course" description="Fees are in Sri Lankan rupees (LKR)." />
      <RequireRole roles={STAFF_ROLES}>
        <AddCourseForm />
      </RequireRole>
    </div>
  );
}

function AddCourseForm() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [form, setForm] = useState<Form>(EMPTY);
  const { error, fail, failRequest, clear } = useFormError();
  const set = (key: keyof Form) => (e: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [key]: e.target.value }));
  const missing = (key: keyof Form) => error === REQUIRED && !form[key].trim();

  const create = useMutation(
    trpc.courses.create.mutationOptions({
      onSuccess: async () => {
        toast.success('Course added successfully!');
        await queryClient.invalidateQueries(trpc.courses.pathFilter());
        await navigate({ to: '/courses' });
      },
      onError: (err) => {
        failRequest(err, explainedMessage(err, 'Failed to add course. Please try again.'));
      },
    }),
  );

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (REQUIRED_FIELDS.some((k) => !form[k].trim())) {
      fail(REQUIRED);
      return;
    }
    clear();
    create.mutate({
      courseName: form.courseName,
      duration: form.duration,
      totalFee: form.totalFee,
      installments: form.installments,
      category: form.category,
      admissionFee: form.admissionFee,
      description: form.description.trim() || undefined,
      currency: 'LKR',
    });
  };

  return (
    <Card className="max-w-2xl">
      <form onSubmit={onSubmit} onChange={clear} noValidate>
        <CardContent className="grid gap-5 sm:grid-cols-2">
          <Field id="course-name" label="Course Name" className="sm:col-span-2">
            <Input
              id="course-name"
              value={form.courseName}
              onChange={set('courseName')}
              maxLength={150}
              required
              aria-invalid={missing('courseName')}
            />
          </Field>
          <Field id="course-duration" label="Duration">
            <Input
              id="course-duration"
              value={form.duration}
              onChange={set('duration')}
              placeholder="e.g. 6 months"
              maxLength={100}
              required
              aria-invalid={missing('duration')}
            />
          </Field>
          <Field id="course-category" label="Category">
            <Input
              id="course-category"
              value={form.category}
              onChange={set('category')}
              maxLength={100}
              required
              aria-invalid={missing('category')}
            />
          </Field>
          <Field id="course-total-fee" label="Total Fee (Rs.)">
            <Input
              id="course-total-fee"
              type="number"
              min={0}
              step="0.01"
              inputMode="decimal"
              value={form.totalFee}
              onChange={set('totalFee')}
              required
              aria-invalid={missing('totalFee')}
            />
          </Field>
          <Field id="course-admission-fee" label="Admission Fee (Rs.)">
            <Input
              id="course-admission-fee"
              type="number"
              min={0}
              step="0.01"
              inputMode="decimal"
              value={form.admissionFee}
              onChange={set('admissionFee')}
              required
              aria-invalid={missing('admissionFee')}
            />
          </Field>
          <Field id="course-installments" label="Installments">
            <Input
              id="course-installments"
              type="number"
              min={1}
              step={1}
              inputMode="numeric"
              value={form.installments}
              onChange={set('installments')}
              required
              aria-invalid={missing('installments')}
            />
          </Field>
          <div className="grid gap-2 sm:col-span-2">
            <Label htmlFor="course-description">Description (optional)</Label>
            <Textarea
              id="course-description"
              value={form.description}
              onChange={set('description')}
              maxLength={2000}
              rows={3}
            />
          </div>
          <FormError error={error} className="sm:col-span-2" />
        </CardContent>
        <CardFooter className="mt-6 justify-end gap-2">
          <Button variant="outline" asChild>
            <Link to="/courses">Cancel</Link>
          </Button>
          <SubmitButton pending={create.isPending} pendingText="Adding...">
            Add Course
          </SubmitButton>
        </CardFooter>
      </form>
    </Card>
  );
}

function Field({
  id,
  label,
  className,
  children,
}: {
  id: string;
  label: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={`grid gap-2 ${className ?? ''}`}>
      <Label htmlFor={id}>
        {label} <span className="text-destructive">*</span>
      </Label>
      {children}
    </div>
  );
}
