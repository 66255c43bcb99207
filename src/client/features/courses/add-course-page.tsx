import { useMutation } from '@tanstack/react-query';
import { FormFooter } from '@/components/form-feedback';
import { FormField, FormMessage, ZodFormElement } from '@/components/form-field';
import { RolePage, STAFF_ROLES } from '@/components/require-role';
import { Card, CardContent } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';
import { useAddPageHandlers } from '@/lib/add-page';
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
  const form = useZodForm(ZCreateCourseInput, EMPTY);

  const create = useMutation(
    trpc.courses.create.mutationOptions(
      useAddPageHandlers({
        form,
        added: 'Course added successfully!',
        failed: 'Failed to add course. Please try again.',
        refresh: trpc.courses.pathFilter(),
        back: '/courses',
      }),
    ),
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
        <FormFooter pending={create.isPending} pendingText="Adding..." cancelTo="/courses">
          Add Course
        </FormFooter>
      </ZodFormElement>
    </Card>
  );
}
