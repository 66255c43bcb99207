import { useMutation } from '@tanstack/react-query';
import { FormFooter } from '@/components/form-feedback';
import { FormField, FormMessage, ZodFormElement } from '@/components/form-field';
import { ADMIN_ROLES, RolePage } from '@/components/require-role';
import { Card, CardContent } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { useAddPageHandlers } from '@/lib/add-page';
import { trpc } from '@/lib/trpc';
import { useZodForm } from '@/lib/use-zod-form';
import { ZCreateBranchInput } from '@shared/schemas/branches';

/** docs/product.md#screens-and-routes, Add New Branch (admin and superadmin: the server refuses others). */
export function AddBranchPage() {
  return (
    <RolePage title="Add New Branch" description="A new location of the institute or clinic." roles={ADMIN_ROLES}>
      <AddBranchForm />
    </RolePage>
  );
}

function AddBranchForm() {
  const form = useZodForm(ZCreateBranchInput, { name: '', location: '', phone: '' });

  const create = useMutation(
    trpc.branches.create.mutationOptions(
      useAddPageHandlers({
        form,
        added: 'Branch added successfully!',
        failed: 'Failed to add branch. Please try again.',
        refresh: trpc.branches.pathFilter(),
        back: '/branch',
      }),
    ),
  );

  return (
    <Card className="max-w-xl">
      <ZodFormElement form={form} idPrefix="branch" onValid={(values) => create.mutate(values)}>
        <CardContent className="grid gap-5">
          <FormField name="name" label="Branch Name" required>
            {(field) => <Input {...field} maxLength={100} />}
          </FormField>
          <FormField name="location" label="Location" required>
            {(field) => <Input {...field} maxLength={200} />}
          </FormField>
          <FormField name="phone" label="Phone" hint="Whom students and patients call about this branch.">
            {(field) => <Input {...field} type="tel" inputMode="tel" maxLength={30} />}
          </FormField>
          <FormMessage />
        </CardContent>
        <FormFooter pending={create.isPending} pendingText="Adding..." cancelTo="/branch">
          Add Branch
        </FormFooter>
      </ZodFormElement>
    </Card>
  );
}
