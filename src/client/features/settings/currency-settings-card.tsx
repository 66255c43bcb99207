import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { FormError, SubmitButton } from '@/components/form-feedback';
import { LoadError } from '@/components/load-error';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { explainedMessage } from '@/lib/errors';
import { trpc } from '@/lib/trpc';
import { useFormError } from '@/lib/use-form-error';
import { currencyOptions } from './settings-queries';

interface CurrencySettings {
  localCurrency: string;
  foreignCurrency: string;
  exchangeRate: number;
}

const RATE_RE = /^\d+(\.\d{1,4})?$/;

/** Local and foreign currency and the exchange rate (local per foreign) the reports convert with. */
export function CurrencySettingsCard() {
  const current = useQuery(currencyOptions());
  return (
    <Card className="max-w-xl">
      <CardHeader>
        <CardTitle>Currency</CardTitle>
        <CardDescription>
          Treatment prices are kept per currency; revenue totals convert foreign money at this rate.
        </CardDescription>
      </CardHeader>
      {current.isError ? (
        <CardContent>
          <LoadError error={current.error} onRetry={() => void current.refetch()} />
        </CardContent>
      ) : current.isPending ? (
        <CardContent className="grid gap-3">
          <Skeleton className="h-9 w-full" />
          <Skeleton className="h-9 w-full" />
          <Skeleton className="h-9 w-full" />
        </CardContent>
      ) : (
        // Keyed by the saved values: the form starts over from what the server now holds.
        <CurrencyForm key={JSON.stringify(current.data)} saved={current.data} />
      )}
    </Card>
  );
}

function CurrencyForm({ saved }: { saved: CurrencySettings }) {
  const queryClient = useQueryClient();
  const [local, setLocal] = useState(saved.localCurrency);
  const [foreign, setForeign] = useState(saved.foreignCurrency);
  const [rate, setRate] = useState(String(saved.exchangeRate));
  const { error, fail, failRequest, clear } = useFormError();

  const save = useMutation(
    trpc.settings.updateCurrency.mutationOptions({
      onSuccess: async () => {
        toast.success('Currency settings saved.');
        // Screens that convert money read the rate through their own queries.
        await queryClient.invalidateQueries();
      },
      onError: (err) => {
        failRequest(err, explainedMessage(err, 'Failed to save the currency settings. Please try again.'));
      },
    }),
  );

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const r = rate.trim();
    if (!RATE_RE.test(r) || Number(r) <= 0) {
      const message = RATE_RE.test(r)
        ? 'Exchange rate must be greater than 0.'
        : 'Exchange rate must be a number with at most 4 decimal places.';
      fail(message);
      return;
    }
    clear();
    save.mutate({ localCurrency: local, foreignCurrency: foreign, exchangeRate: Number(r) });
  };

  return (
    <form onSubmit={onSubmit} onChange={clear} noValidate>
      <CardContent className="grid gap-5 sm:grid-cols-2">
        <div className="grid gap-2">
          <Label htmlFor="local-currency">Local currency</Label>
          <Input
            id="local-currency"
            value={local}
            onChange={(e) => setLocal(e.target.value.toUpperCase())}
            maxLength={3}
          />
        </div>
        <div className="grid gap-2">
          <Label htmlFor="foreign-currency">Foreign currency</Label>
          <Input
            id="foreign-currency"
            value={foreign}
            onChange={(e) => setForeign(e.target.value.toUpperCase())}
            maxLength={3}
          />
        </div>
        <div className="grid gap-2 sm:col-span-2">
          <Label htmlFor="exchange-rate">
            Exchange rate ({local || 'local'} per 1 {foreign || 'foreign'})
          </Label>
          <Input
            id="exchange-rate"
            inputMode="decimal"
            value={rate}
            onChange={(e) => setRate(e.target.value)}
            aria-invalid={!!error}
          />
        </div>
        <FormError error={error} className="sm:col-span-2" />
      </CardContent>
      <CardFooter className="mt-6 justify-end">
        <SubmitButton pending={save.isPending} pendingText="Saving...">
          Save
        </SubmitButton>
      </CardFooter>
    </form>
  );
}
