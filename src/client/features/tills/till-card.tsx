import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from 'sonner';
import { QueryView } from '@/components/query-view';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';
import { useCurrentUser } from '@/lib/auth';
import { explainedMessage } from '@/lib/errors';
import { useCurrencies } from '@/lib/format';
import { trpc } from '@/lib/trpc';
import { formatDateTime, formatMoney } from '@shared/format';
import { hasAtMostTwoDecimals, toMinor } from '@shared/money';
import type { TTill } from '@shared/schemas/tills';
import { BranchSelect, MoneyList } from '../payments/payment-common';
import { LabelledField, LabelledInput } from '@/components/labelled-field';

type Amounts = Array<{ currency: string; amount: number }>;

/** A typed amount as a number, or null while it is not one (empty counts as nothing typed). */
function amountOf(text: string): number | null {
  const t = text.trim().replace(/,/g, '');
  if (!/^\d+(\.\d{1,2})?$/.test(t)) return null;
  const n = Number(t);
  return hasAtMostTwoDecimals(n) ? n : null;
}

/**
 * The cashier's till on the Payments screen (docs/payments.md#tills): open one with a float,
 * see the cash taken, close it with the counted cash; a difference needs a note.
 */
export function TillCard() {
  const mine = useQuery(trpc.tills.list.queryOptions({ mine: true, status: 'open', page: 1, pageSize: 20 }));
  const [closed, setClosed] = useState<TTill | null>(null);
  return (
    <Card className="mb-6" data-testid="till-card">
      <CardHeader>
        <CardTitle>My till</CardTitle>
        <CardDescription>
          Cash you record at a branch while your till there is open goes into it. Close it at the end of the day with
          the cash you counted.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-6">
        <QueryView query={mine} placeholder="h-24 w-full">
          {(data) => (
            <>
              {closed && <ClosedSummary till={closed} />}
              {data.data.map((t) => (
                <OpenTill key={t._id} till={t} onClosed={setClosed} />
              ))}
              {data.data.length === 0 && <OpenTillForm />}
            </>
          )}
        </QueryView>
      </CardContent>
    </Card>
  );
}

function OpenTillForm() {
  const user = useCurrentUser();
  const { localCurrency } = useCurrencies();
  const queryClient = useQueryClient();
  const [branchId, setBranchId] = useState(user.branch?._id ?? '');
  const [float, setFloat] = useState('');
  const open = useMutation(
    trpc.tills.open.mutationOptions({
      onSuccess: async () => {
        toast.success('Till opened.');
        setFloat('');
        await queryClient.invalidateQueries(trpc.tills.pathFilter());
      },
      onError: (err) => toast.error(explainedMessage(err, 'Failed to open the till. Please try again.')),
    }),
  );
  const amount = amountOf(float || '0');
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (!branchId) return void toast.error('Choose the branch of the till.');
    if (amount === null) return void toast.error('The float must be 0 or more with at most two decimals.');
    open.mutate({ branchId, openingFloat: [{ currency: localCurrency, amount }] });
  };
  return (
    <form className="grid gap-3 sm:grid-cols-[1fr_1fr_auto] sm:items-end" onSubmit={submit}>
      <LabelledField id="till-branch" label="Branch">
        <BranchSelect id="till-branch" value={branchId} onChange={setBranchId} />
      </LabelledField>
      <LabelledInput
        id="till-float"
        label={`Opening float (${localCurrency})`}
        inputMode="decimal"
        placeholder="0.00"
        value={float}
        onValueChange={setFloat}
      />
      <Button type="submit" disabled={open.isPending}>
        {open.isPending ? 'Opening...' : 'Open till'}
      </Button>
    </form>
  );
}

function OpenTill({ till, onClosed }: { till: TTill; onClosed: (t: TTill) => void }) {
  const queryClient = useQueryClient();
  const [counted, setCounted] = useState<Record<string, string>>({});
  const [note, setNote] = useState('');
  const close = useMutation(
    trpc.tills.close.mutationOptions({
      onSuccess: async (t) => {
        toast.success('Till closed.');
        onClosed(t);
        await queryClient.invalidateQueries(trpc.tills.pathFilter());
        await queryClient.invalidateQueries(trpc.payments.cashUp.pathFilter());
      },
      onError: (err) => toast.error(explainedMessage(err, 'Failed to close the till. Please try again.')),
    }),
  );
  const currencies = till.expected.length
    ? till.expected
    : [{ currency: till.openingFloat[0]?.currency ?? 'LKR', amount: 0 }];
  const rows = currencies.map((e) => ({ ...e, typed: amountOf(counted[e.currency] ?? '') }));
  const allTyped = rows.every((r) => r.typed !== null);
  const differs = rows.some((r) => r.typed !== null && toMinor(r.typed) !== toMinor(r.amount));
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (!allTyped) return void toast.error('Enter the counted cash for each currency, with at most two decimals.');
    if (differs && !note.trim())
      return void toast.error('The counted cash differs from the expected amount: add a note saying why.');
    close.mutate({
      id: till._id,
      counted: rows.map((r) => ({ currency: r.currency, amount: r.typed ?? 0 })),
      note: note.trim() || undefined,
    });
  };
  return (
    <form className="space-y-4" onSubmit={submit} data-testid="open-till">
      <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-4">
        <div>
          <dt className="text-muted-foreground">Branch</dt>
          <dd className="font-medium">{till.branch.name}</dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Opened</dt>
          <dd>{formatDateTime(till.openedAt)}</dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Float</dt>
          <dd>
            <MoneyList items={till.openingFloat} />
          </dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Expected now ({till.payments} cash payments)</dt>
          <dd className="font-medium" data-testid="till-expected">
            <MoneyList items={till.expected} />
          </dd>
        </div>
      </dl>
      <div className="grid gap-3 sm:grid-cols-2">
        {rows.map((r) => (
          <LabelledField key={r.currency} id={`counted-${r.currency}`} label={`Counted (${r.currency})`}>
            <Input
              id={`counted-${r.currency}`}
              inputMode="decimal"
              placeholder="0.00"
              value={counted[r.currency] ?? ''}
              onChange={(e) => setCounted({ ...counted, [r.currency]: e.target.value })}
            />
            {r.typed !== null && (
              <p className="text-sm" data-testid="till-difference">
                Difference: {formatMoney(r.typed - r.amount, r.currency)}
              </p>
            )}
          </LabelledField>
        ))}
      </div>
      <LabelledField id="till-note" label={`Note${differs ? ' (required: the count differs)' : ''}`}>
        <Textarea id="till-note" value={note} onChange={(e) => setNote(e.target.value)} maxLength={1000} />
      </LabelledField>
      <Button type="submit" disabled={close.isPending}>
        {close.isPending ? 'Closing...' : 'Close till'}
      </Button>
    </form>
  );
}

function ClosedSummary({ till }: { till: TTill }) {
  const line = (label: string, items: Amounts | null) => (
    <div>
      <dt className="text-muted-foreground">{label}</dt>
      <dd>
        <MoneyList items={items ?? []} />
      </dd>
    </div>
  );
  return (
    <div className="rounded-md border p-3 text-sm" data-testid="closed-till">
      <p className="mb-2 font-medium">
        Till at {till.branch.name} closed {formatDateTime(till.closedAt)}
      </p>
      <dl className="grid gap-x-6 gap-y-2 sm:grid-cols-4">
        {line('Float', till.openingFloat)}
        {line('Expected', till.expected)}
        {line('Counted', till.counted)}
        {line('Difference', till.difference)}
      </dl>
      {till.note && <p className="mt-2">Note: {till.note}</p>}
    </div>
  );
}
