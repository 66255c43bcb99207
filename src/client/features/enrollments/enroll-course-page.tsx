import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useWatch } from 'react-hook-form';
import { toast } from 'sonner';
import { FormFooter } from '@/components/form-feedback';
import { FormField, FormMessage, ZodFormElement } from '@/components/form-field';
import { NativeSelect } from '@/components/native-select';
import { RolePage, STAFF_ROLES } from '@/components/require-role';
import { UserPicker } from '@/components/user-picker';
import { Card, CardContent } from '@/components/ui/card';
import { explainedMessage } from '@/lib/errors';
import { trpc } from '@/lib/trpc';
import { useZodForm } from '@/lib/use-zod-form';
import { ZCreateEnrollmentInput } from '@shared/schemas/enrollments';
import { formatMoney } from '@shared/format';
import { splitMinor, toMinor, fromMinor } from '@shared/money';

/** docs/product.md#screens-and-routes, Enroll Student: user email, course, payment type (default full). */
export function EnrollCoursePage() {
  return (
    <RolePage
      title="Enroll Student"
      description="Enrol a registered user in a course. The course's fees are fixed on the enrolment at this moment."
      roles={STAFF_ROLES}
    >
      <EnrollForm />
    </RolePage>
  );
}

function EnrollForm() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const courses = useQuery(trpc.courses.options.queryOptions());
  const form = useZodForm(ZCreateEnrollmentInput, { email: '', courseId: '', paymentType: 'full' });
  const [courseId, paymentType] = useWatch({ control: form.control, name: ['courseId', 'paymentType'] });
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
        form.reset();
        await queryClient.invalidateQueries(trpc.enrollments.pathFilter());
        await navigate({ to: '/courses/enrollment' });
      },
      onError: (err) => {
        form.failRequest(err, explainedMessage(err, 'Failed to enroll user. Please try again.'));
      },
    }),
  );

  const parts = course
    ? paymentType === 'full'
      ? [toMinor(course.totalFee)]
      : splitMinor(toMinor(course.totalFee), course.installments)
    : [];

  return (
    <Card className="max-w-xl">
      <ZodFormElement
        form={form}
        idPrefix="enroll"
        // The server matches the email trimmed and case-insensitively.
        onValid={(v) => enroll.mutate({ email: v.email, courseId: v.courseId, paymentType: v.paymentType })}
      >
        <CardContent className="grid gap-5">
          <FormField name="email" label="User Email" required hint="Type part of a name, username, email or phone.">
            {(field) => <UserPicker control={field} placeholder="student@example.com" />}
          </FormField>
          <FormField name="courseId" id="enroll-course" label="Course" required>
            {(field) => (
              <NativeSelect
                {...field}
                empty={courses.isPending ? 'Loading courses...' : 'Select a course'}
                choices={courses.data?.map((c) => ({ value: c._id, label: c.courseName }))}
              />
            )}
          </FormField>
          {courses.isError && <p className="text-sm text-destructive">Error: {courses.error.message}</p>}
          <FormField name="paymentType" id="enroll-payment-type" label="Payment Type">
            {(field) => (
              <NativeSelect {...field}>
                <option value="full">Full payment</option>
                <option value="installment">Installments</option>
              </NativeSelect>
            )}
          </FormField>
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
          <FormMessage />
        </CardContent>
        <FormFooter
          pending={enroll.isPending}
          pendingText="Enrolling..."
          cancelTo="/courses/AllStudentEnrollments"
          cancelLabel="All Enrollments"
        >
          Enroll Student
        </FormFooter>
      </ZodFormElement>
    </Card>
  );
}
