import { useMutation, useQuery } from '@tanstack/react-query';
import { FormFooter } from '@/components/form-feedback';
import { FormField, FormMessage, ZodFormElement } from '@/components/form-field';
import { NativeSelect } from '@/components/native-select';
import { RolePage, STAFF_ROLES } from '@/components/require-role';
import { Card, CardContent } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { useCurrentUser } from '@/lib/auth';
import { useAddPageHandlers } from '@/lib/add-page';
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
    trpc.users.create.mutationOptions(
      useAddPageHandlers({
        form,
        added: 'User added successfully!',
        failed: 'Failed to add user. Please try again.',
        refresh: trpc.users.pathFilter(),
        back: '/users',
      }),
    ),
  );

  return (
    <Card className="max-w-2xl">
      <ZodFormElement form={form} idPrefix="user" onValid={(values) => create.mutate(values)}>
        <CardContent className="grid gap-5">
          <FormField name="branchId" id="user-branch" label="Branch" required>
            {(field) => (
              <NativeSelect
                {...field}
                empty={branches.isPending ? 'Loading branches...' : 'Select a branch'}
                choices={branches.data?.map((b) => ({ value: b._id, label: `${b.name} — ${b.location}` }))}
              />
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
        <FormFooter pending={create.isPending} pendingText="Adding..." cancelTo="/users">
          Add User
        </FormFooter>
      </ZodFormElement>
    </Card>
  );
}
