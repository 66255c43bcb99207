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
import { useCurrentUser } from '@/lib/auth';
import { explainedMessage } from '@/lib/errors';
import { trpc } from '@/lib/trpc';
import { useFormError } from '@/lib/use-form-error';
import { ROLE_LABELS, type Role } from '@shared/roles';
import { roleOptionsFor } from './user-queries';

const BRANCH_REQUIRED = 'Please select a branch.';
const REQUIRED = 'Please fill all the required fields.';
const SHORT_PASSWORD = 'Password must be at least 8 characters.';

/** docs/product.md#screens-and-routes, Add New User: admins, managers and superadmins (docs/product.md#roles). */
export function AddUserPage() {
  return (
    <div>
      <PageHeader
        title="Add New User"
        description="Staff, students and customers sign in with the email and password given here."
      />
      <RequireRole roles={STAFF_ROLES}>
        <AddUserForm />
      </RequireRole>
    </div>
  );
}

function AddUserForm() {
  const me = useCurrentUser();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const branches = useQuery(trpc.branches.options.queryOptions());
  const [form, setForm] = useState({
    branchId: '',
    username: '',
    fullName: '',
    email: '',
    password: '',
    role: 'user' as Role,
  });
  const { error, fail, failRequest, clear } = useFormError();
  const set = (patch: Partial<typeof form>) => setForm((f) => ({ ...f, ...patch }));

  const create = useMutation(
    trpc.users.create.mutationOptions({
      onSuccess: async () => {
        toast.success('User added successfully!');
        await queryClient.invalidateQueries(trpc.users.pathFilter());
        await navigate({ to: '/users' });
      },
      onError: (err) => {
        failRequest(err, explainedMessage(err, 'Failed to add user. Please try again.'));
      },
    }),
  );

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (!form.branchId) return fail(BRANCH_REQUIRED);
    if (!form.username.trim() || !form.fullName.trim() || !form.email.trim() || !form.password) return fail(REQUIRED);
    if (form.password.length < 8) return fail(SHORT_PASSWORD);
    clear();
    create.mutate({
      ...form,
      username: form.username.trim(),
      fullName: form.fullName.trim(),
      email: form.email.trim(),
    });
  };

  return (
    <Card className="max-w-xl">
      <form onSubmit={onSubmit} onChange={clear} noValidate>
        <CardContent className="grid gap-5">
          <div className="grid gap-2">
            <Label htmlFor="user-branch">
              Branch <span className="text-destructive">*</span>
            </Label>
            <NativeSelect
              id="user-branch"
              value={form.branchId}
              onChange={(e) => set({ branchId: e.target.value })}
              aria-invalid={error === BRANCH_REQUIRED}
            >
              <option value="">{branches.isPending ? 'Loading branches...' : 'Select a branch'}</option>
              {branches.data?.map((b) => (
                <option key={b._id} value={b._id}>
                  {b.name} — {b.location}
                </option>
              ))}
            </NativeSelect>
            {branches.isError && <p className="text-sm text-destructive">Error: {branches.error.message}</p>}
          </div>
          <div className="grid gap-2 sm:grid-cols-2 sm:gap-4">
            <div className="grid gap-2">
              <Label htmlFor="user-username">
                Username <span className="text-destructive">*</span>
              </Label>
              <Input
                id="user-username"
                value={form.username}
                onChange={(e) => set({ username: e.target.value })}
                maxLength={50}
                autoComplete="off"
              />
            </div>
            <div className="grid gap-2">
              <Label htmlFor="user-fullname">
                Full Name <span className="text-destructive">*</span>
              </Label>
              <Input
                id="user-fullname"
                value={form.fullName}
                onChange={(e) => set({ fullName: e.target.value })}
                maxLength={100}
              />
            </div>
          </div>
          <div className="grid gap-2">
            <Label htmlFor="user-email">
              Email <span className="text-destructive">*</span>
            </Label>
            <Input
              id="user-email"
              type="email"
              value={form.email}
              onChange={(e) => set({ email: e.target.value })}
              autoComplete="off"
            />
          </div>
          <div className="grid gap-2">
            <Label htmlFor="user-password">
              Password <span className="text-destructive">*</span>
            </Label>
            <Input
              id="user-password"
              type="password"
              value={form.password}
              onChange={(e) => set({ password: e.target.value })}
              autoComplete="new-password"
            />
            <p className="text-xs text-muted-foreground">At least 8 characters.</p>
          </div>
          <div className="grid gap-2">
            <Label htmlFor="user-role">Role</Label>
            <NativeSelect id="user-role" value={form.role} onChange={(e) => set({ role: e.target.value as Role })}>
              {roleOptionsFor(me.role).map((r) => (
                <option key={r} value={r}>
                  {ROLE_LABELS[r]}
                </option>
              ))}
            </NativeSelect>
          </div>
          <FormError error={error} />
        </CardContent>
        <CardFooter className="mt-6 justify-end gap-2">
          <Button variant="outline" asChild>
            <Link to="/users">Cancel</Link>
          </Button>
          <SubmitButton pending={create.isPending} pendingText="Adding...">
            Add User
          </SubmitButton>
        </CardFooter>
      </form>
    </Card>
  );
}
