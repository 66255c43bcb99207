import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { FormError, SubmitButton } from '@/components/form-feedback';
import { NativeSelect } from '@/components/native-select';
import { PageHeader } from '@/components/page-header';
import { RequireRole, STAFF_ROLES } from '@/components/require-role';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardFooter } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { explainedMessage } from '@/lib/errors';
import { trpc } from '@/lib/trpc';
import { useFormError } from '@/lib/use-form-error';
import { formatMoney } from '@shared/format';
import { splitMinor, toMinor, fromMinor } from '@shared/money';

const REQUIRED = 'Please enter a valid email and select a course.';

/** docs/product.md#screens-and-routes, Enroll Student: user email, course, payment type (default full). */
export function EnrollCoursePage() {
  return (
    <div>
      <PageHeader
        title="Enroll Student"
        description="Enrol a registered user in a course. The course's fees are fixed on the enrolment at this moment."
      />
      <RequireRole roles={STAFF_ROLES}>
        <EnrollForm />
      </RequireRole>
    </div>
  );
}

function EnrollForm() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const courses = useQuery(trpc.courses.options.queryOptions());
  const [email, setEmail] = useState('');
  const [courseId, setCourseId] = useState('');
  const [paymentType, setPaymentType] = useState<'full' | 'installment'>('full');
  const { error, fail, failRequest, clear } = useFormError();
  const course = courses.data?.find((c) => c._id === courseId);

  const enroll = useMutation(
    trpc.enrollments.create.mutationOptions({
      onSuccess: async (e) => {
        toast.success('Student enrolled successfully!', {
          action: {
            label: 'View',
            onClick: () =>
              void navigate({
                to: '/courses/$courseId/enrollment/$enrollmentId',
                params: { courseId: e.courseId?._id ?? 'deleted', enrollmentId: e._id },
              }),
          },
        });
        setEmail('');
        setCourseId('');
        setPaymentType('full');
        await queryClient.invalidateQueries(trpc.enrollments.pathFilter());
        await navigate({ to: '/courses/enrollment' });
      },
      onError: (err) => {
        failRequest(err, explainedMessage(err, 'Failed to enroll user. Please try again.'));
      },
    }),
  );

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (!email.trim() || !courseId) {
      fail(REQUIRED);
      return;
    }
    clear();
    // The server matches the email trimmed and case-insensitively.
    enroll.mutate({ email, courseId, paymentType });
  };

  const parts = course
    ? paymentType === 'full'
      ? [toMinor(course.totalFee)]
      : splitMinor(toMinor(course.totalFee), course.installments)
    : [];

  return (
    <Card className="max-w-xl">
      <form onSubmit={onSubmit} onChange={clear} noValidate>
        <CardContent className="grid gap-5">
          <div className="grid gap-2">
            <Label htmlFor="enroll-email">
              User Email <span className="text-destructive">*</span>
            </Label>
            <Input
              id="enroll-email"
              type="text"
              inputMode="email"
              autoComplete="off"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              placeholder="student@example.com"
              aria-invalid={error === REQUIRED && !email.trim()}
            />
          </div>
          <div className="grid gap-2">
            <Label htmlFor="enroll-course">
              Course <span className="text-destructive">*</span>
            </Label>
            <NativeSelect
              id="enroll-course"
              value={courseId}
              onChange={(e) => setCourseId(e.target.value)}
              aria-invalid={error === REQUIRED && !courseId}
            >
              <option value="">{courses.isPending ? 'Loading courses...' : 'Select a course'}</option>
              {courses.data?.map((c) => (
                <option key={c._id} value={c._id}>
                  {c.courseName}
                </option>
              ))}
            </NativeSelect>
            {courses.isError && <p className="text-sm text-destructive">Error: {courses.error.message}</p>}
          </div>
          <div className="grid gap-2">
            <Label htmlFor="enroll-payment-type">Payment Type</Label>
            <NativeSelect
              id="enroll-payment-type"
              value={paymentType}
              onChange={(e) => setPaymentType(e.target.value === 'installment' ? 'installment' : 'full')}
            >
              <option value="full">Full payment</option>
              <option value="installment">Installments</option>
            </NativeSelect>
          </div>
          {course && (
            <div className="rounded-md border bg-muted/40 p-3 text-sm" data-testid="enroll-summary">
              <p>
                Total fee: <strong>{formatMoney(course.totalFee, course.currency)}</strong> · Admission fee:{' '}
                <strong>{formatMoney(course.admissionFee, course.currency)}</strong>
              </p>
              <p className="text-muted-foreground">
                {paymentType === 'full'
                  ? 'One payment of the whole fee, due today.'
                  : `${parts.length} monthly installments: ${parts.map((p) => formatMoney(fromMinor(p), course.currency)).join(', ')}`}
              </p>
            </div>
          )}
          <FormError error={error} />
        </CardContent>
        <CardFooter className="mt-6 justify-end gap-2">
          <Button variant="outline" asChild>
            <Link to="/courses/AllStudentEnrollments">All Enrollments</Link>
          </Button>
          <SubmitButton pending={enroll.isPending} pendingText="Enrolling...">
            Enroll Student
          </SubmitButton>
        </CardFooter>
      </form>
    </Card>
  );
}
