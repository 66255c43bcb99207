import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useWatch } from 'react-hook-form';
import { toast } from 'sonner';
import { FormFooter } from '@/components/form-feedback';
import { FormField, FormMessage, ZodFormElement } from '@/components/form-field';
import { LoadError } from '@/components/load-error';
import { NativeSelect } from '@/components/native-select';
import { ADMIN_ROLES, RolePage } from '@/components/require-role';
import { UserPicker } from '@/components/user-picker';
import { Card, CardContent } from '@/components/ui/card';
import { isClientError } from '@/lib/errors';
import { useCurrencies } from '@/lib/format';
import { trpc } from '@/lib/trpc';
import { useZodForm } from '@/lib/use-zod-form';
import { ZBookTreatmentInput } from '@shared/schemas/bookings';
import { formatMoney, plural } from '@shared/format';

/** docs/product.md#screens-and-routes, Book Treatment for User (admin and superadmin: the server refuses others). */
export function BookTreatmentPage() {
  return (
    <RolePage
      title="Book Treatment for User"
      description="The price follows the patient type: local in LKR, foreign in USD."
      roles={ADMIN_ROLES}
    >
      <BookTreatmentForm />
    </RolePage>
  );
}

function BookTreatmentForm() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const options = useQuery(trpc.treatments.options.queryOptions());
  const currencies = useCurrencies();
  const form = useZodForm(ZBookTreatmentInput, {
    email: '',
    userType: 'local',
    paymentType: 'full',
    treatmentId: '',
  });
  const [treatmentId, userType, paymentType] = useWatch({
    control: form.control,
    name: ['treatmentId', 'userType', 'paymentType'],
  });
  const treatment = options.data?.find((t) => t._id === treatmentId);

  const book = useMutation(
    trpc.bookings.book.mutationOptions({
      onSuccess: async () => {
        toast.success('Treatment booked successfully!');
        await queryClient.invalidateQueries(trpc.bookings.pathFilter());
        await navigate({ to: '/treatment/all-book' });
      },
      onError: (err) => {
        form.failRequest(err, isClientError(err) && err.message ? err.message : 'Failed to book treatment');
      },
    }),
  );

  return (
    <Card className="max-w-2xl">
      <ZodFormElement form={form} idPrefix="booking" onValid={(values) => book.mutate(values)}>
        <CardContent className="grid gap-5">
          <FormField name="email" label="User Email" required hint="Type part of a name, username, email or phone.">
            {(field) => <UserPicker control={field} placeholder="customer@example.com" />}
          </FormField>
          <div className="grid gap-5 sm:grid-cols-2">
            <FormField name="userType" id="booking-user-type" label="User Type">
              {(field) => (
                <NativeSelect {...field}>
                  <option value="local">Local</option>
                  <option value="foreign">Foreign</option>
                </NativeSelect>
              )}
            </FormField>
            <FormField name="paymentType" id="booking-payment-type" label="Payment Type">
              {(field) => (
                <NativeSelect {...field}>
                  <option value="full">Full</option>
                  <option value="installment">Installment</option>
                </NativeSelect>
              )}
            </FormField>
          </div>
          {options.isError ? (
            <LoadError error={options.error} onRetry={() => void options.refetch()} />
          ) : (
            <FormField name="treatmentId" id="booking-treatment" label="Treatment" required>
              {(field) => (
                <NativeSelect
                  {...field}
                  disabled={options.isPending}
                  empty={options.isPending ? 'Loading treatments...' : 'Select a treatment'}
                  choices={options.data?.map((t) => ({ value: t._id, label: t.treatmentName }))}
                />
              )}
            </FormField>
          )}
          {treatment && (
            <div className="grid gap-1 rounded-md border bg-muted/40 p-4 text-sm" data-testid="treatment-details">
              <p className="font-medium">{treatment.treatmentName}</p>
              <p>Sessions: {treatment.maxSessions}</p>
              <p>
                Price:{' '}
                {userType === 'local'
                  ? formatMoney(treatment.localPrice, currencies.localCurrency)
                  : formatMoney(treatment.foreignPrice, currencies.foreignCurrency)}
              </p>
              {paymentType === 'installment' && (
                <p className="text-muted-foreground">
                  Paid in {plural(treatment.installments, 'monthly installment')}.
                </p>
              )}
            </div>
          )}
          <FormMessage />
        </CardContent>
        <FormFooter pending={book.isPending} pendingText="Booking...">
          Book Treatment
        </FormFooter>
      </ZodFormElement>
    </Card>
  );
}
