import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { toast } from 'sonner';
import { SubmitButton } from '@/components/form-feedback';
import { FormField, FormMessage, ZodFormElement } from '@/components/form-field';
import { ADMIN_ROLES, RolePage } from '@/components/require-role';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardFooter } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { explainedMessage } from '@/lib/errors';
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
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const form = useZodForm(ZCreateBranchInput, { name: '', location: '', phone: '' });

  const create = useMutation(
    trpc.branches.create.mutationOptions({
      onSuccess: async () => {
        toast.success('Branch added successfully!');
        await queryClient.invalidateQueries(trpc.branches.pathFilter());
        await navigate({ to: '/branch' });
      },
      onError: (err) => {
        // A duplicate name (409) or a validation message is worth showing as the server says it.
        form.failRequest(err, explainedMessage(err, 'Failed to add branch. Please try again.'));
      },
    }),
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
        <CardFooter className="mt-6 justify-end gap-2">
          <Button variant="outline" asChild>
            <Link to="/branch">Cancel</Link>
          </Button>
          <SubmitButton pending={create.isPending} pendingText="Adding...">
            Add Branch
          </SubmitButton>
        </CardFooter>
      </ZodFormElement>
    </Card>
  );
}
