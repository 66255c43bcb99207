import { useQueryClient } from '@tanstack/react-query';
import { AddLink, DeleteConfirm, RowEditActions } from '@/components/list-actions';
import { ListPage, type TableHook } from '@/components/list-page';
import { useIsAdmin } from '@/lib/auth';
import { useCurrencies } from '@/lib/format';
import { useEditableRows } from '@/lib/use-editable-rows';
import { trpc } from '@/lib/trpc';
import { currencySymbol, formatMoney } from '@shared/format';
import { treatmentList } from './treatment-queries';
import { formatDuration, readDraft, toDraft } from './treatment-row';

/** docs/product.md#screens-and-routes, All Treatments. */
export function TreatmentsPage() {
  return (
    <ListPage
      guard="page"
      list={treatmentList}
      names={{ record: 'treatment', plural: 'treatments', search: 'Search by treatment name' }}
      header={{ title: 'All Treatments', description: "The clinic's treatments, their prices and sessions." }}
      actions={
        <AddLink to="/treatment/create-treatement" adminOnly>
          Add Treatment
        </AddLink>
      }
      useTable={useTreatmentsTable}
    />
  );
}

const useTreatmentsTable: TableHook<typeof treatmentList> = () => {
  const admin = useIsAdmin();
  const currencies = useCurrencies();
  const queryClient = useQueryClient();
  const rows = useEditableRows({
    noun: 'Treatment',
    toDraft,
    toInput: readDraft,
    update: trpc.treatments.update.mutationOptions,
    remove: trpc.treatments.delete.mutationOptions,
    invalidate: () => queryClient.invalidateQueries(trpc.treatments.pathFilter()),
  });

  const box = { type: 'number', className: 'h-8 min-w-16' } as const;
  const price = { ...box, step: '0.01', min: '0' };
  const whole = { ...box, step: '1', min: '1' };
  const part = (placeholder: string) => ({ ...box, min: '0', step: '1', placeholder });

  return {
    columns: [
      {
        header: 'Treatment Name',
        wrap: true,
        sort: 'treatmentName',
        className: 'font-medium',
        cell: (t) =>
          rows.input(t, 'treatmentName', 'Treatment Name', { ...box, type: 'text', autoFocus: true }) ??
          t.treatmentName,
      },
      {
        header: `Local Price (${currencies.localCurrency})`,
        sort: 'localPrice',
        headClassName: 'text-right',
        className: 'text-right tabular-nums',
        cell: (t) =>
          rows.input(t, 'localPrice', 'Local Price', price) ?? formatMoney(t.localPrice, currencies.localCurrency),
      },
      {
        header: `Foreign Price (${currencySymbol(currencies.foreignCurrency)})`,
        sort: 'foreignPrice',
        headClassName: 'text-right',
        className: 'text-right tabular-nums',
        cell: (t) =>
          rows.input(t, 'foreignPrice', 'Foreign Price', price) ??
          formatMoney(t.foreignPrice, currencies.foreignCurrency),
      },
      {
        header: 'Max Sessions',
        sort: 'maxSessions',
        headClassName: 'text-right',
        className: 'text-right',
        cell: (t) => rows.input(t, 'maxSessions', 'Max Sessions', whole) ?? t.maxSessions,
      },
      {
        header: 'Installments',
        headClassName: 'text-right',
        className: 'text-right',
        cell: (t) => rows.input(t, 'installments', 'Installments', whole) ?? t.installments,
      },
      {
        header: 'Duration',
        className: 'whitespace-normal',
        cell: (t) =>
          rows.editing(t) ? (
            <div className="flex gap-1">
              {rows.input(t, 'weeks', 'Duration Weeks', part('W'))}
              {rows.input(t, 'days', 'Duration Days', part('D'))}
              {rows.input(t, 'months', 'Duration Months', part('M'))}
            </div>
          ) : (
            formatDuration(t.duration)
          ),
      },
      {
        header: 'Actions',
        headClassName: 'text-right',
        className: 'text-right',
        cell: (t) => (
          <RowEditActions rows={rows} row={t} name={t.treatmentName} size="icon" canEdit={admin} canDelete={admin} />
        ),
      },
    ],
    dialog: (
      <DeleteConfirm
        dialog={rows.del.dialog}
        what="treatment"
        name={rows.del.target?.treatmentName}
        consequence="Its bookings are kept."
        onConfirm={rows.del.confirm}
      />
    ),
  };
};
