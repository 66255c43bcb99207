import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useWatch } from 'react-hook-form';
import { toast } from 'sonner';
import { z } from 'zod';
import { FormFooter } from '@/components/form-feedback';
import { FormField, FormMessage, ZodFormElement, type FieldControlProps } from '@/components/form-field';
import { CardQuery } from '@/components/card-query';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { explainedMessage } from '@/lib/errors';
import { trpc } from '@/lib/trpc';
import { useZodForm } from '@/lib/use-zod-form';
import { ZUpdateCurrencyInput } from '@shared/schemas/settings';
import { currencyOptions } from './settings-queries';

interface CurrencySettings {
  localCurrency: string;
  foreignCurrency: string;
  exchangeRate: number;
}

const RATE_RE = /^\d+(\.\d{1,4})?$/;
/**
 * The rate is typed as text: it must read as a plain number before the shared schema
 * (ZUpdateCurrencyInput, which the server checks) takes the values.
 */
const ZCurrencyForm = z
  .object({
    localCurrency: z.string(),
    foreignCurrency: z.string(),
    exchangeRate: z
      .string()
      .trim()
      .regex(RATE_RE, 'Exchange rate must be a number with at most 4 decimal places.')
      .transform(Number),
  })
  .pipe(ZUpdateCurrencyInput);

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
      <CardQuery query={current} placeholders={['h-9 w-full', 'h-9 w-full', 'h-9 w-full']}>
        {(data) => (
          // Keyed by the saved values: the form starts over from what the server now holds.
          <CurrencyForm key={JSON.stringify(data)} saved={data} />
        )}
      </CardQuery>
    </Card>
  );
}

function CurrencyForm({ saved }: { saved: CurrencySettings }) {
  const queryClient = useQueryClient();
  const form = useZodForm(ZCurrencyForm, {
    localCurrency: saved.localCurrency,
    foreignCurrency: saved.foreignCurrency,
    exchangeRate: String(saved.exchangeRate),
  });
  const [local, foreign] = useWatch({ control: form.control, name: ['localCurrency', 'foreignCurrency'] });

  const save = useMutation(
    trpc.settings.updateCurrency.mutationOptions({
      onSuccess: async () => {
        toast.success('Currency settings saved.');
        // Screens that convert money read the rate through their own queries.
        await queryClient.invalidateQueries();
      },
      onError: (err) => {
        form.failRequest(err, explainedMessage(err, 'Failed to save the currency settings. Please try again.'));
      },
    }),
  );

  const code = (field: FieldControlProps) => (
    <Input {...field} onChange={(e) => field.onChange(e.target.value.toUpperCase())} maxLength={3} />
  );
  return (
    <ZodFormElement form={form} onValid={(values) => save.mutate(values)}>
      <CardContent className="grid gap-5 sm:grid-cols-2">
        <FormField name="localCurrency" id="local-currency" label="Local currency">
          {code}
        </FormField>
        <FormField name="foreignCurrency" id="foreign-currency" label="Foreign currency">
          {code}
        </FormField>
        <FormField
          name="exchangeRate"
          id="exchange-rate"
          label={`Exchange rate (${local || 'local'} per 1 ${foreign || 'foreign'})`}
          className="sm:col-span-2"
        >
          {(field) => <Input {...field} inputMode="decimal" />}
        </FormField>
        <FormMessage className="sm:col-span-2" />
      </CardContent>
      <FormFooter pending={save.isPending} pendingText="Saving...">
        Save
      </FormFooter>
    </ZodFormElement>
  );
}
