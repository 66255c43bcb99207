import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { FormError, SubmitButton } from '@/components/form-feedback';
import { PageHeader } from '@/components/page-header';
import { ADMIN_ROLES, RequireRole } from '@/components/require-role';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardFooter } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { explainedMessage } from '@/lib/errors';
import { trpc } from '@/lib/trpc';
import { useFormError } from '@/lib/use-form-error';

const REQUIRED = 'Please fill all the required fields.';

/** docs/product.md#screens-and-routes, Add New Branch (admin and superadmin: the server refuses others). */
export function AddBranchPage() {
  return (
    <div>
      <PageHeader title="Add New Branch" description="A new location of the institute or clinic." />
      <RequireRole roles={ADMIN_ROLES}>
        <AddBranchForm />
      </RequireRole>
    </div>
  );
}

function AddBranchForm() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [location, setLocation] = useState('');
  const { error, fail, failRequest, clear } = useFormError();

  const create = useMutation(
    trpc.branches.create.mutationOptions({
      onSuccess: async () => {
        toast.success('Branch added successfully!');
        await queryClient.invalidateQueries(trpc.branches.pathFilter());
        await navigate({ to: '/branch' });
      },
      onError: (err) => {
        // A duplicate name (409) or a validation message is worth showing as the server says it.
        failRequest(err, explainedMessage(err, 'Failed to add branch. Please try again.'));
      },
    }),
  );

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim() || !location.trim()) {
      fail(REQUIRED);
      return;
    }
    clear();
    create.mutate({ name: name.trim(), location: location.trim() });
  };

  return (
    <Card className="max-w-xl">
      <form onSubmit={onSubmit} onChange={clear} noValidate>
        <CardContent className="grid gap-5">
          <div className="grid gap-2">
            <Label htmlFor="branch-name">
              Branch Name <span className="text-destructive">*</span>
            </Label>
            <Input
              id="branch-name"
              value={name}
              onChange={(e) => setName(e.target.value)}
              maxLength={100}
              required
              aria-invalid={error === REQUIRED && !name.trim()}
            />
          </div>
          <div className="grid gap-2">
            <Label htmlFor="branch-location">
              Location <span className="text-destructive">*</span>
            </Label>
            <Input
              id="branch-location"
              value={location}
              onChange={(e) => setLocation(e.target.value)}
              maxLength={200}
              required
              aria-invalid={error === REQUIRED && !location.trim()}
            />
          </div>
          <FormError error={error} />
        </CardContent>
        <CardFooter className="mt-6 justify-end gap-2">
          <Button variant="outline" asChild>
            <Link to="/branch">Cancel</Link>
          </Button>
          <SubmitButton pending={create.isPending} pendingText="Adding...">
            Add Branch
          </SubmitButton>
        </CardFooter>
      </form>
    </Card>
  );
}
