import { useQuery } from '@tanstack/react-query';
import { DateRangeFilter, FilterField, SelectFilter, type FilterBinding } from '@/components/filter-field';
import { NativeSelect } from '@/components/native-select';
import { trpc } from '@/lib/trpc';
import { formatMoney } from '@shared/format';
import { PAYMENT_METHOD_LABELS, PAYMENT_METHODS, type PaymentMethod } from '@shared/payment-kinds';

export { PAYMENT_METHOD_LABELS, PAYMENT_METHODS };

/** Figures per currency: a ledger never adds rupees to dollars. */
export function MoneyList({ items, empty = '—' }: { items: { currency: string; amount: number }[]; empty?: string }) {
  if (items.length === 0) return <span>{empty}</span>;
  return (
    <span className="flex flex-col">
      {items.map((i) => (
        // An amount never breaks between its currency and its figure.
        <span key={i.currency} data-currency={i.currency} className="whitespace-nowrap">
          {formatMoney(i.amount, i.currency)}
        </span>
      ))}
    </span>
  );
}

/** How money moved, with its reference (a transfer's or cheque's number) under it when it has one. */
export function MethodWithReference({ method, reference }: { method: PaymentMethod; reference?: string | null }) {
  return (
    <>
      {PAYMENT_METHOD_LABELS[method]}
      {reference && <span className="block text-xs text-muted-foreground">{reference}</span>}
    </>
  );
}

/** All branches or one; the server narrows a branch-limited manager to their own whatever is chosen. */
export function BranchSelect({
  value,
  onChange,
  id,
}: {
  value: string;
  onChange: (branchId: string) => void;
  id?: string;
}) {
  const branches = useQuery(
    trpc.branches.list.queryOptions({ page: 1, pageSize: 200, sortBy: 'name', sortDir: 'asc' }),
  );
  return (
    <NativeSelect
      id={id}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      aria-label="Branch"
      empty="All branches"
      choices={(branches.data?.items ?? []).map((b) => ({ value: b._id, label: b.name }))}
    />
  );
}

/** The ledger's and the refunds' filters: From and To, the branch and the method. */
export function PeriodBranchMethodFilters({
  from,
  to,
  branch,
  method,
}: {
  from: FilterBinding<string>;
  to: FilterBinding<string>;
  branch: FilterBinding<string>;
  method: FilterBinding<PaymentMethod>;
}) {
  return (
    <>
      <DateRangeFilter from={from} to={to} />
      <FilterField label="Branch" className="w-44">
        <BranchSelect value={branch.value ?? ''} onChange={(b) => branch.onChange(b || undefined)} />
      </FilterField>
      <FilterField label="Method" className="w-40">
        <SelectFilter label="Method" all="All methods" options={PAYMENT_METHOD_LABELS} {...method} />
      </FilterField>
    </>
  );
}
