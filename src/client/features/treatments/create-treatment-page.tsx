import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { toast } from 'sonner';
import { FormError, SubmitButton } from '@/components/form-feedback';
import { PageHeader } from '@/components/page-header';
import { ADMIN_ROLES, RequireRole } from '@/components/require-role';
import { Card, CardContent, CardFooter } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { isClientError } from '@/lib/errors';
import { trpc } from '@/lib/trpc';
import { useFormError } from '@/lib/use-form-error';
import { EMPTY_FORM, readTreatmentForm, REQUIRED_CREATE, type TreatmentForm } from './treatment-form';

/** docs/product.md#screens-and-routes, Add New Treatment (admin and superadmin: the server refuses others). */
export function CreateTreatmentPage() {
  return (
    <div>
      <PageHeader
        title="Add New Treatment"
        description="Prices for local and foreign patients, sessions and payment plan."
      />
      <RequireRole roles={ADMIN_ROLES}>
        <CreateTreatmentForm />
      </RequireRole>
    </div>
  );
}

/** docs/product.md#messages: a duplicate name reads as the fixed text; otherwise the server's, else the fallback. */
function createErrorMessage(err: unknown): string {
  const message = err instanceof Error ? err.message : '';
  if (message.includes('already exists')) return 'A treatment with this name already exists';
  if (isClientError(err) && message) return message;
  return 'Failed to create treatment';
}

function Field({
  id,
  label,
  required,
  hint,
  children,
}: {
  id: string;
  label: string;
  required?: boolean;
  hint?: string;
  children: ReactNode;
}) {
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>
        {label} {required && <span className="text-destructive">*</span>}
      </Label>
      {children}
      {hint && <p className="text-xs text-muted-foreground">{hint}</p>}
    </div>
  );
}

function CreateTreatmentForm() {
  const queryClient = useQueryClient();
  const [form, setForm] = useState<TreatmentForm>(EMPTY_FORM);
  const { error, fail, failRequest, clear } = useFormError();
  const set = (key: keyof TreatmentForm) => (e: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [key]: e.target.value }));

  const create = useMutation(
    trpc.treatments.create.mutationOptions({
      onSuccess: async () => {
        toast.success('Treatment created successfully!');
        setForm(EMPTY_FORM);
        clear();
        await queryClient.invalidateQueries(trpc.treatments.pathFilter());
      },
      onError: (err) => {
        failRequest(err, createErrorMessage(err));
      },
    }),
  );

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const read = readTreatmentForm(form, REQUIRED_CREATE);
    if ('error' in read) {
      fail(read.error);
      return;
    }
    clear();
    create.mutate(read.values);
  };

  return (
    <Card className="max-w-2xl">
      <form onSubmit={onSubmit} onChange={clear} noValidate>
        <CardContent className="grid gap-5">
          <Field id="treatment-name" label="Treatment Name" required>
            <Input id="treatment-name" value={form.treatmentName} onChange={set('treatmentName')} maxLength={200} />
          </Field>
          <div className="grid gap-5 sm:grid-cols-2">
            <Field id="local-price" label="Local Price (LKR)" required>
              <Input
                id="local-price"
                type="number"
                inputMode="decimal"
                step="0.01"
                min="0"
                value={form.localPrice}
                onChange={set('localPrice')}
              />
            </Field>
            <Field id="foreign-price" label="Foreign Price ($)" required>
              <Input
                id="foreign-price"
                type="number"
                inputMode="decimal"
                step="0.01"
                min="0"
                value={form.foreignPrice}
                onChange={set('foreignPrice')}
              />
            </Field>
            <Field id="max-sessions" label="Max Sessions" required>
              <Input
                id="max-sessions"
                type="number"
                inputMode="numeric"
                step="1"
                min="1"
                value={form.maxSessions}
                onChange={set('maxSessions')}
              />
            </Field>
            <Field id="installments" label="Installments" required>
              <Input
                id="installments"
                type="number"
                inputMode="numeric"
                step="1"
                min="1"
                value={form.installments}
                onChange={set('installments')}
              />
            </Field>
          </div>
          <fieldset className="grid gap-3">
            <legend className="mb-2 text-sm font-medium">
              Duration <span className="font-normal text-muted-foreground">(optional)</span>
            </legend>
            <div className="grid gap-5 sm:grid-cols-3">
              <Field id="duration-weeks" label="Weeks">
                <Input
                  id="duration-weeks"
                  type="number"
                  step="1"
                  min="0"
                  placeholder="0"
                  value={form.weeks}
                  onChange={set('weeks')}
                />
              </Field>
              <Field id="duration-days" label="Days">
                <Input
                  id="duration-days"
                  type="number"
                  step="1"
                  min="0"
                  placeholder="0"
                  value={form.days}
                  onChange={set('days')}
                />
              </Field>
              <Field id="duration-months" label="Months">
                <Input
                  id="duration-months"
                  type="number"
                  step="1"
                  min="0"
                  placeholder="0"
                  value={form.months}
                  onChange={set('months')}
                />
              </Field>
            </div>
          </fieldset>
          <FormError error={error} />
        </CardContent>
        <CardFooter className="mt-6 justify-end gap-2">
          <SubmitButton pending={create.isPending} pendingText="Creating...">
            Create Treatment
          </SubmitButton>
        </CardFooter>
      </form>
    </Card>
  );
}
