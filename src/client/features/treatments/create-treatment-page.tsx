import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { FormFooter } from '@/components/form-feedback';
import { FormField, FormMessage, ZodFormElement } from '@/components/form-field';
import { ADMIN_ROLES, RolePage } from '@/components/require-role';
import { Card, CardContent } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { isClientError } from '@/lib/errors';
import { trpc } from '@/lib/trpc';
import { useZodForm } from '@/lib/use-zod-form';
import { DUPLICATE_TREATMENT, TIMING_DEFAULTS, ZCreateTreatmentInput } from '@shared/schemas/treatments';
import type { FieldControlProps } from '@/components/form-field';
import { CheckboxField } from '@/components/checkbox-field';

const EMPTY = {
  treatmentName: '',
  localPrice: '',
  foreignPrice: '',
  maxSessions: '',
  installments: '',
  duration: { weeks: '', days: '', months: '' },
  ...TIMING_DEFAULTS,
};

/** docs/product.md#screens-and-routes, Add New Treatment (admin and superadmin: the server refuses others). */
export function CreateTreatmentPage() {
  return (
    <RolePage
      title="Add New Treatment"
      description="Prices for local and foreign patients, sessions and payment plan."
      roles={ADMIN_ROLES}
    >
      <CreateTreatmentForm />
    </RolePage>
  );
}

/** docs/product.md#messages: a duplicate name reads as the fixed text; otherwise the server's, else the fallback. */
function createErrorMessage(err: unknown): string {
  const message = err instanceof Error ? err.message : '';
  if (message.includes('already exists')) return DUPLICATE_TREATMENT;
  if (isClientError(err) && message) return message;
  return 'Failed to create treatment';
}

const price = { type: 'number', inputMode: 'decimal', step: '0.01', min: '0' } as const;
const count = { type: 'number', inputMode: 'numeric', step: '1', min: '1' } as const;
const DURATION_PARTS = [
  ['weeks', 'Weeks'],
  ['days', 'Days'],
  ['months', 'Months'],
] as const;
const durationPart = { type: 'number', step: '1', min: '0', placeholder: '0' } as const;

/**
 * A whole number of minutes: the schema takes a number, so the field hands it one (a blank or
 * unreadable box is NaN, which the schema answers with the field's own message).
 */
function MinutesInput({ value, onChange, ...field }: FieldControlProps & { min: string; max: string }) {
  return (
    <Input
      {...field}
      type="number"
      inputMode="numeric"
      step="1"
      value={typeof value === 'number' && Number.isFinite(value) ? value : ''}
      onChange={(e) => onChange(e.target.valueAsNumber)}
    />
  );
}

function CreateTreatmentForm() {
  const queryClient = useQueryClient();
  const form = useZodForm(ZCreateTreatmentInput, EMPTY);

  const create = useMutation(
    trpc.treatments.create.mutationOptions({
      onSuccess: async () => {
        toast.success('Treatment created successfully!');
        form.reset(EMPTY);
        await queryClient.invalidateQueries(trpc.treatments.pathFilter());
      },
      onError: (err) => form.failRequest(err, createErrorMessage(err)),
    }),
  );

  return (
    <Card className="max-w-2xl">
      <ZodFormElement form={form} onValid={(values) => create.mutate(values)}>
        <CardContent className="grid gap-5">
          <FormField name="treatmentName" id="treatment-name" label="Treatment Name" required>
            {(field) => <Input {...field} maxLength={200} />}
          </FormField>
          <div className="grid gap-5 sm:grid-cols-2">
            <FormField name="localPrice" id="local-price" label="Local Price (LKR)" required>
              {(field) => <Input {...field} {...price} />}
            </FormField>
            <FormField name="foreignPrice" id="foreign-price" label="Foreign Price ($)" required>
              {(field) => <Input {...field} {...price} />}
            </FormField>
            <FormField name="maxSessions" id="max-sessions" label="Max Sessions" required>
              {(field) => <Input {...field} {...count} />}
            </FormField>
            <FormField name="installments" id="installments" label="Installments" required>
              {(field) => <Input {...field} {...count} />}
            </FormField>
          </div>
          <fieldset className="grid gap-3">
            <legend className="mb-2 text-sm font-medium">
              Duration <span className="font-normal text-muted-foreground">(optional)</span>
            </legend>
            <div className="grid gap-5 sm:grid-cols-3">
              {DURATION_PARTS.map(([part, label]) => (
                <FormField key={part} name={`duration.${part}`} id={`duration-${part}`} label={label}>
                  {(field) => <Input {...field} {...durationPart} />}
                </FormField>
              ))}
            </div>
          </fieldset>
          <fieldset className="grid gap-3">
            <legend className="mb-2 text-sm font-medium">Appointments</legend>
            <div className="grid gap-5 sm:grid-cols-2">
              <FormField
                name="sessionMinutes"
                id="session-minutes"
                label="Session length (minutes)"
                hint="How long one appointment lasts: 5 to 720 minutes."
              >
                {(field) => <MinutesInput {...field} min="5" max="720" />}
              </FormField>
              <FormField
                name="bufferMinutes"
                id="buffer-minutes"
                label="Buffer after a session (minutes)"
                hint="Time kept free after each session: 0 to 240 minutes."
              >
                {(field) => <MinutesInput {...field} min="0" max="240" />}
              </FormField>
            </div>
            <CheckboxField
              label="Requires a room"
              checked={form.watch('requiresRoom') ?? false}
              onCheckedChange={(on) => form.setValue('requiresRoom', on, { shouldDirty: true })}
            />
          </fieldset>
          <FormMessage />
        </CardContent>
        <FormFooter pending={create.isPending} pendingText="Creating...">
          Create Treatment
        </FormFooter>
      </ZodFormElement>
    </Card>
  );
}
