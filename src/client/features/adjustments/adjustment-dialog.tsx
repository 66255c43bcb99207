import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { NativeSelect } from '@/components/native-select';
import { FormDialog } from '@/components/form-dialog';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { Textarea } from '@/components/ui/textarea';
import { useFormMutation } from '@/lib/use-form-mutation';
import { trpc } from '@/lib/trpc';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { formatDay, formatMoney } from '@shared/format';
import { ZAdjustmentBody, type TAdjustmentBody } from '@shared/schemas/adjustments';
import { invalidateMoney } from '@/features/payments/payments-table';
import { LabelledField, LabelledInput } from '@/components/labelled-field';

/** An item an adjustment may name: an installment's id or `admission_fee`, and how the screen calls it. */
export interface AdjustableItem {
  id: string;
  label: string;
}

type Kind = 'discount' | 'scholarship' | 'write_off';

/** The preview's item name: the admission fee, or the installment's number and due day. */
export const adjustedItemName = (i: { item: string; installmentNumber: number | null; dueDate: string | null }) =>
  i.item === 'admission_fee'
    ? 'Admission fee'
    : `Installment ${i.installmentNumber ?? '?'}${i.dueDate ? ` (due ${formatDay(i.dueDate)})` : ''}`;

/**
 * Discount / scholarship, or Write off (docs/payments.md#adjustments): the request as the server
 * takes it, and the server's own plan of each item before and after, asked again as the choice
 * changes. The same function plans the preview and the write, so what is shown is what happens.
 */
export function AdjustmentDialog({
  record,
  mode,
  currency,
  items,
  onClose,
}: {
  record: { enrollmentId: string } | { bookingId: string };
  mode: 'discount' | 'write_off';
  currency: string;
  items: AdjustableItem[];
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const [kind, setKind] = useState<Kind>(mode === 'write_off' ? 'write_off' : 'discount');
  const [by, setBy] = useState<'percent' | 'amount'>('percent');
  const [value, setValue] = useState('');
  const [itemId, setItemId] = useState('');
  const [schemeId, setSchemeId] = useState('');
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const schemes = useQuery({ ...trpc.adjustments.schemes.queryOptions(), enabled: kind === 'scholarship' });
  const activeSchemes = (schemes.data?.data ?? []).filter((s) => s.active);

  const number = value.trim() === '' ? undefined : Number(value);
  const body = {
    kind,
    ...(kind === 'write_off' ? {} : by === 'percent' ? { percent: number } : { amount: number }),
    itemId: itemId || undefined,
    schemeId: kind === 'scholarship' && schemeId ? schemeId : undefined,
    reason,
  };
  // The preview needs no reason yet: a placeholder stands in until one is typed.
  const previewBody = ZAdjustmentBody.safeParse({ ...body, reason: reason.trim() || 'preview' });
  const debounced = useDebouncedValue(previewBody.success ? previewBody.data : null, 250);
  const preview = useQuery({
    ...trpc.adjustments.preview.queryOptions({ ...record, body: debounced ?? ({} as TAdjustmentBody) }),
    enabled: debounced !== null,
    retry: false,
  });

  const create = useFormMutation({
    mutationOptions: trpc.adjustments.create.mutationOptions,
    success: (a) =>
      a.status === 'pending'
        ? `Asked for approval: ${formatMoney(a.total, a.currency)} off.`
        : `${a.kind === 'write_off' ? 'Wrote off' : 'Took off'} ${formatMoney(a.total, a.currency)}.`,
    failure: 'Failed to save the adjustment',
    after: async () => {
      onClose();
      await Promise.all([invalidateMoney(queryClient), queryClient.invalidateQueries(trpc.adjustments.pathFilter())]);
    },
    onError: setError,
  });

  const submit = () => {
    const parsed = ZAdjustmentBody.safeParse(body);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Please check the form.');
      return;
    }
    setError(null);
    create.mutate({ ...record, body: parsed.data });
  };

  const pending = preview.data?.pending ?? false;
  const title = mode === 'write_off' ? 'Write off' : 'Discount / scholarship';
  return (
    <FormDialog
      title={title}
      description={
        mode === 'write_off'
          ? 'Gives up what is still owed (bad debt). What is already paid stays paid.'
          : 'Lowers what is owed. The whole fee is taken from the last installment first.'
      }
      error={error}
      errorTestId="adjustment-error"
      pending={create.isPending}
      submitLabel={pending ? 'Ask for approval' : mode === 'write_off' ? 'Write off' : 'Apply'}
      submitVariant={mode === 'write_off' ? 'destructive' : 'default'}
      closeLabel="Cancel"
      noValidate
      className="max-h-[90dvh] overflow-y-auto"
      onClose={onClose}
      onSubmit={submit}
    >
      {mode === 'discount' && (
        <div className="grid gap-4 sm:grid-cols-2">
          <LabelledField id="adjustment-kind" label="Kind">
            <NativeSelect id="adjustment-kind" value={kind} onChange={(e) => setKind(e.target.value as Kind)}>
              <option value="discount">Discount</option>
              <option value="scholarship">Scholarship</option>
            </NativeSelect>
          </LabelledField>
          {kind === 'scholarship' && (
            <LabelledField id="adjustment-scheme" label="Scheme">
              <NativeSelect
                id="adjustment-scheme"
                value={schemeId}
                onChange={(e) => {
                  setSchemeId(e.target.value);
                  const s = activeSchemes.find((x) => x._id === e.target.value);
                  if (s) {
                    setBy('percent');
                    setValue(String(s.defaultPercent));
                  }
                }}
                empty="No scheme"
                choices={activeSchemes.map((s) => ({ value: s._id, label: `${s.name} (${s.defaultPercent}%)` }))}
              />
            </LabelledField>
          )}
          <LabelledField id="adjustment-by" label="Take off">
            <NativeSelect id="adjustment-by" value={by} onChange={(e) => setBy(e.target.value as 'percent' | 'amount')}>
              <option value="percent">Percentage of what is owed</option>
              <option value="amount">Fixed amount</option>
            </NativeSelect>
          </LabelledField>
          <LabelledInput
            id="adjustment-value"
            label={by === 'percent' ? 'Percent' : `Amount (${currency})`}
            type="number"
            inputMode="decimal"
            min={by === 'percent' ? '1' : '0.01'}
            max={by === 'percent' ? '100' : undefined}
            step="0.01"
            value={value}
            onValueChange={setValue}
          />
        </div>
      )}
      <LabelledField id="adjustment-item" label="On">
        <NativeSelect
          id="adjustment-item"
          value={itemId}
          onChange={(e) => setItemId(e.target.value)}
          empty="The whole fee (installments)"
          choices={items.map((i) => ({ value: i.id, label: i.label }))}
        />
      </LabelledField>
      <LabelledField id="adjustment-reason" label="Reason">
        <Textarea id="adjustment-reason" maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} />
      </LabelledField>
      <PreviewTable
        state={
          !debounced
            ? { kind: 'idle' }
            : preview.isPending
              ? { kind: 'loading' }
              : preview.isError
                ? { kind: 'error', message: preview.error.message }
                : { kind: 'ready', data: preview.data }
        }
      />
    </FormDialog>
  );
}

type PreviewState =
  | { kind: 'idle' }
  | { kind: 'loading' }
  | { kind: 'error'; message: string }
  | {
      kind: 'ready';
      data: {
        currency: string;
        total: number;
        pending: boolean;
        items: Array<{
          itemId: string | null;
          item: string;
          installmentNumber: number | null;
          dueDate: string | null;
          before: number;
          after: number;
        }>;
      };
    };

function PreviewTable({ state }: { state: PreviewState }) {
  if (state.kind === 'idle')
    return <p className="text-sm text-muted-foreground">Choose how much to see each item before and after.</p>;
  if (state.kind === 'loading') return <Skeleton className="h-20 w-full" />;
  if (state.kind === 'error')
    return (
      <p className="text-sm text-destructive" data-testid="adjustment-preview-error">
        {state.message}
      </p>
    );
  const { data } = state;
  return (
    <div className="space-y-2" data-testid="adjustment-preview">
      <Table containerClassName="rounded-md border" aria-label="Before and after">
        <TableHeader>
          <TableRow>
            <TableHead>Item</TableHead>
            <TableHead className="text-right">Before</TableHead>
            <TableHead className="text-right">After</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {data.items.map((i) => (
            <TableRow key={i.itemId ?? i.item} data-testid="adjustment-preview-row">
              <TableCell className="whitespace-normal">{adjustedItemName(i)}</TableCell>
              <TableCell className="text-right tabular-nums">{formatMoney(i.before, data.currency)}</TableCell>
              <TableCell className="text-right tabular-nums">{formatMoney(i.after, data.currency)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <p className="text-sm font-medium" data-testid="adjustment-preview-total">
        Total taken off: {formatMoney(data.total, data.currency)}
        {data.pending && <span className="font-normal text-muted-foreground"> — waits for an admin to approve</span>}
      </p>
    </div>
  );
}
