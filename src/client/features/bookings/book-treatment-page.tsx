import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { FormError, SubmitButton } from '@/components/form-feedback';
import { LoadError } from '@/components/load-error';
import { NativeSelect } from '@/components/native-select';
import { PageHeader } from '@/components/page-header';
import { ADMIN_ROLES, RequireRole } from '@/components/require-role';
import { Card, CardContent, CardFooter } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { isClientError } from '@/lib/errors';
import { useCurrencies } from '@/lib/format';
import { trpc } from '@/lib/trpc';
import { useFormError } from '@/lib/use-form-error';
import { formatMoney, plural } from '@shared/format';

const SELECT_TREATMENT = 'Please select a treatment.';
const ENTER_EMAIL = 'Please enter a user email.';

/** docs/product.md#screens-and-routes, Book Treatment for User (admin and superadmin: the server refuses others). */
export function BookTreatmentPage() {
  return (
    <div>
      <PageHeader
        title="Book Treatment for User"
        description="The price follows the patient type: local in LKR, foreign in USD."
      />
      <RequireRole roles={ADMIN_ROLES}>
        <BookTreatmentForm />
      </RequireRole>
    </div>
  );
}

function BookTreatmentForm() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const options = useQuery(trpc.treatments.options.queryOptions());
  const currencies = useCurrencies();
  const [email, setEmail] = useState('');
  const [userType, setUserType] = useState<'local' | 'foreign'>('local');
  const [paymentType, setPaymentType] = useState<'full' | 'installment'>('full');
  const [treatmentId, setTreatmentId] = useState('');
  const { error, fail, failRequest, clear } = useFormError();
  const treatment = options.data?.find((t) => t._id === treatmentId);

  const book = useMutation(
    trpc.bookings.book.mutationOptions({
      onSuccess: async () => {
        toast.success('Treatment booked successfully!');
        await queryClient.invalidateQueries(trpc.bookings.pathFilter());
        await navigate({ to: '/treatment/all-book' });
      },
      onError: (err) => {
        failRequest(err, isClientError(err) && err.message ? err.message : 'Failed to book treatment');
      },
    }),
  );

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const problem = !treatmentId ? SELECT_TREATMENT : !email.trim() ? ENTER_EMAIL : null;
    if (problem) {
      fail(problem);
      return;
    }
    clear();
    book.mutate({ email: email.trim(), treatmentId, userType, paymentType });
  };

  return (
    <Card className="max-w-2xl">
      <form onSubmit={onSubmit} onChange={clear} noValidate>
        <CardContent className="grid gap-5">
          <div className="grid gap-2">
            <Label htmlFor="booking-email">
              User Email <span className="text-destructive">*</span>
            </Label>
            <Input
              id="booking-email"
              type="email"
              autoComplete="off"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              placeholder="customer@example.com"
            />
          </div>
          <div className="grid gap-5 sm:grid-cols-2">
            <div className="grid gap-2">
              <Label htmlFor="booking-user-type">User Type</Label>
              <NativeSelect
                id="booking-user-type"
                value={userType}
                onChange={(e) => setUserType(e.target.value as 'local' | 'foreign')}
              >
                <option value="local">Local</option>
                <option value="foreign">Foreign</option>
              </NativeSelect>
            </div>
            <div className="grid gap-2">
              <Label htmlFor="booking-payment-type">Payment Type</Label>
              <NativeSelect
                id="booking-payment-type"
                value={paymentType}
                onChange={(e) => setPaymentType(e.target.value as 'full' | 'installment')}
              >
                <option value="full">Full</option>
                <option value="installment">Installment</option>
              </NativeSelect>
            </div>
          </div>
          <div className="grid gap-2">
            <Label htmlFor="booking-treatment">
              Treatment <span className="text-destructive">*</span>
            </Label>
            {options.isError ? (
              <LoadError error={options.error} onRetry={() => void options.refetch()} />
            ) : (
              <NativeSelect
                id="booking-treatment"
                value={treatmentId}
                onChange={(e) => setTreatmentId(e.target.value)}
                disabled={options.isPending}
              >
                <option value="">{options.isPending ? 'Loading treatments...' : 'Select a treatment'}</option>
                {options.data?.map((t) => (
                  <option key={t._id} value={t._id}>
                    {t.treatmentName}
                  </option>
                ))}
              </NativeSelect>
            )}
          </div>
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
          <FormError error={error} />
        </CardContent>
        <CardFooter className="mt-6 justify-end">
          <SubmitButton pending={book.isPending} pendingText="Booking...">
            Book Treatment
          </SubmitButton>
        </CardFooter>
      </form>
    </Card>
  );
}
