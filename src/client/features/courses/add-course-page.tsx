import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { toast } from 'sonner';
import { SubmitButton } from '@/components/form-feedback';
import { FormField, FormMessage, ZodFormElement } from '@/components/form-field';
import { RolePage, STAFF_ROLES } from '@/components/require-role';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardFooter } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';
import { explainedMessage } from '@/lib/errors';
import { trpc } from '@/lib/trpc';
import { useZodForm } from '@/lib/use-zod-form';
import { ZCreateCourseInput } from '@shared/schemas/courses';

const EMPTY = {
  courseName: '',
  duration: '',
  totalFee: '',
  installments: '1',
  category: '',
  admissionFee: '',
  description: '',
};

/** docs/product.md#screens-and-routes, Add New Course: six required fields; on success back to /courses. */
export function AddCoursePage() {
  return (
    <RolePage title="Add New Course" description="Fees are in Sri Lankan rupees (LKR)." roles={STAFF_ROLES}>
      <AddCourseForm />
    </RolePage>
  );
}

function AddCourseForm() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const form = useZodForm(ZCreateCourseInput, EMPTY);

  const create = useMutation(
    trpc.courses.create.mutationOptions({
      onSuccess: async () => {
        toast.success('Course added successfully!');
        await queryClient.invalidateQueries(trpc.courses.pathFilter());
        await navigate({ to: '/courses' });
      },
      onError: (err) => {
        form.failRequest(err, explainedMessage(err, 'Failed to add course. Please try again.'));
      },
    }),
  );

  const money = { type: 'number', min: 0, step: '0.01', inputMode: 'decimal' } as const;
  return (
    <Card className="max-w-2xl">
      <ZodFormElement
        form={form}
        idPrefix="course"
        onValid={(values) =>
          create.mutate({ ...values, description: values.description || undefined, currency: 'LKR' })
        }
      >
        <CardContent className="grid gap-5 sm:grid-cols-2">
          <FormField name="courseName" id="course-name" label="Course Name" required className="sm:col-span-2">
            {(field) => <Input {...field} maxLength={150} />}
          </FormField>
          <FormField name="duration" label="Duration" required>
            {(field) => <Input {...field} placeholder="e.g. 6 months" maxLength={100} />}
          </FormField>
          <FormField name="category" label="Category" required>
            {(field) => <Input {...field} maxLength={100} />}
          </FormField>
          <FormField name="totalFee" label="Total Fee (Rs.)" required>
            {(field) => <Input {...field} {...money} />}
          </FormField>
          <FormField name="admissionFee" label="Admission Fee (Rs.)" required>
            {(field) => <Input {...field} {...money} />}
          </FormField>
          <FormField name="installments" label="Installments" required>
            {(field) => <Input {...field} type="number" min={1} step={1} inputMode="numeric" />}
          </FormField>
          <FormField name="description" label="Description (optional)" className="sm:col-span-2">
            {(field) => <Textarea {...field} maxLength={2000} rows={3} />}
          </FormField>
          <FormMessage className="sm:col-span-2" />
        </CardContent>
        <CardFooter className="mt-6 justify-end gap-2">
          <Button variant="outline" asChild>
            <Link to="/courses">Cancel</Link>
          </Button>
          <SubmitButton pending={create.isPending} pendingText="Adding...">
            Add Course
          </SubmitButton>
        </CardFooter>
      </ZodFormElement>
    </Card>
  );
}
