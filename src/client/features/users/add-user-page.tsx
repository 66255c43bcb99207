import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { toast } from 'sonner';
import { SubmitButton } from '@/components/form-feedback';
import { FormField, FormMessage, ZodFormElement } from '@/components/form-field';
import { NativeSelect } from '@/components/native-select';
import { RolePage, STAFF_ROLES } from '@/components/require-role';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardFooter } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { useCurrentUser } from '@/lib/auth';
import { explainedMessage } from '@/lib/errors';
import { trpc } from '@/lib/trpc';
import { useZodForm } from '@/lib/use-zod-form';
import { ROLE_LABELS } from '@shared/roles';
import { ZCreateUserInput } from '@shared/schemas/users';
import { roleOptionsFor } from './user-queries';
import { EMPTY_PERSON, PersonFields } from './person-fields';

/** docs/product.md#screens-and-routes, Add New User: admins, managers and superadmins (docs/product.md#roles). */
export function AddUserPage() {
  return (
    <RolePage
      title="Add New User"
      description="Staff, students and customers sign in with the email and password given here."
      roles={STAFF_ROLES}
    >
      <AddUserForm />
    </RolePage>
  );
}

function AddUserForm() {
  const me = useCurrentUser();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const branches = useQuery(trpc.branches.options.queryOptions());
  const form = useZodForm(ZCreateUserInput, {
    branchId: '',
    username: '',
    fullName: '',
    email: '',
    password: '',
    role: 'user',
    ...EMPTY_PERSON,
  });

  const create = useMutation(
    trpc.users.create.mutationOptions({
      onSuccess: async () => {
        toast.success('User added successfully!');
        await queryClient.invalidateQueries(trpc.users.pathFilter());
        await navigate({ to: '/users' });
      },
      onError: (err) => {
        form.failRequest(err, explainedMessage(err, 'Failed to add user. Please try again.'));
      },
    }),
  );

  return (
    <Card className="max-w-2xl">
      <ZodFormElement form={form} idPrefix="user" onValid={(values) => create.mutate(values)}>
        <CardContent className="grid gap-5">
          <FormField name="branchId" id="user-branch" label="Branch" required>
            {(field) => (
              <NativeSelect {...field}>
                <option value="">{branches.isPending ? 'Loading branches...' : 'Select a branch'}</option>
                {branches.data?.map((b) => (
                  <option key={b._id} value={b._id}>
                    {b.name} — {b.location}
                  </option>
                ))}
              </NativeSelect>
            )}
          </FormField>
          {branches.isError && <p className="text-sm text-destructive">Error: {branches.error.message}</p>}
          <div className="grid gap-5 sm:grid-cols-2 sm:gap-4">
            <FormField name="username" label="Username" required>
              {(field) => <Input {...field} maxLength={50} autoComplete="off" />}
            </FormField>
            <FormField name="fullName" id="user-fullname" label="Full Name" required>
              {(field) => <Input {...field} maxLength={100} />}
            </FormField>
          </div>
          <FormField name="email" label="Email" required>
            {(field) => <Input {...field} type="email" autoComplete="off" />}
          </FormField>
          <FormField name="password" label="Password" required hint="At least 8 characters.">
            {(field) => <Input {...field} type="password" autoComplete="new-password" />}
          </FormField>
          <FormField name="role" label="Role">
            {(field) => (
              <NativeSelect
                {...field}
                choices={roleOptionsFor(me.role).map((r) => ({ value: r, label: ROLE_LABELS[r] }))}
              />
            )}
          </FormField>
          <PersonFields />
          <FormMessage />
        </CardContent>
        <CardFooter className="mt-6 justify-end gap-2">
          <Button variant="outline" asChild>
            <Link to="/users">Cancel</Link>
          </Button>
          <SubmitButton pending={create.isPending} pendingText="Adding...">
            Add User
          </SubmitButton>
        </CardFooter>
      </ZodFormElement>
    </Card>
  );
}
