import { useQueryClient } from '@tanstack/react-query';
import { AddLink, DeleteConfirm, RowEditActions } from '@/components/list-actions';
import { ListPage, type TableHook } from '@/components/list-page';
import { Input } from '@/components/ui/input';
import { useIsAdmin } from '@/lib/auth';
import { useCurrencies } from '@/lib/format';
import { useEditableRows } from '@/lib/use-editable-rows';
import { trpc } from '@/lib/trpc';
import { currencySymbol, formatMoney } from '@shared/format';
import {
  formatDuration,
  readTreatmentForm,
  REQUIRED_EDIT,
  toForm,
  type Treatment,
  type TreatmentForm,
} from './treatment-form';
import { treatmentList } from './treatment-queries';

/** docs/product.md#screens-and-routes, All Treatments. */
export function TreatmentsPage() {
  const admin = useIsAdmin();
  return (
    <ListPage
      header={{
        title: 'All Treatments',
        description: "The clinic's treatments, their prices and sessions.",
        actions: admin && <AddLink to="/treatment/create-treatement">Add Treatment</AddLink>,
      }}
      guard="page"
      list={treatmentList}
      names={{ record: 'treatment', plural: 'treatments', search: 'Search by treatment name' }}
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
    toDraft: (t: Treatment) => ({ id: t._id, ...toForm(t) }),
    toInput: (d) => {
      const read = readTreatmentForm(d, REQUIRED_EDIT);
      return 'error' in read ? read.error : { id: d.id, ...read.values };
    },
    update: trpc.treatments.update.mutationOptions,
    remove: trpc.treatments.delete.mutationOptions,
    invalidate: () => queryClient.invalidateQueries(trpc.treatments.pathFilter()),
  });

  const cell = (
    key: keyof TreatmentForm,
    label: string,
    type: 'text' | 'number' = 'number',
    extra: Record<string, string> = {},
  ) => <Input aria-label={label} type={type} className="h-8 min-w-16" {...rows.bind(key)} {...extra} />;

  return {
    columns: [
      {
        header: 'Treatment Name',
        wrap: true,
        sort: 'treatmentName',
        className: 'font-medium',
        cell: (t) =>
          rows.editing(t) ? cell('treatmentName', 'Treatment Name', 'text', { autoFocus: 'true' }) : t.treatmentName,
      },
      {
        header: `Local Price (${currencies.localCurrency})`,
        sort: 'localPrice',
        headClassName: 'text-right',
        className: 'text-right tabular-nums',
        cell: (t) =>
          rows.editing(t)
            ? cell('localPrice', 'Local Price', 'number', { step: '0.01', min: '0' })
            : formatMoney(t.localPrice, currencies.localCurrency),
      },
      {
        header: `Foreign Price (${currencySymbol(currencies.foreignCurrency)})`,
        sort: 'foreignPrice',
        headClassName: 'text-right',
        className: 'text-right tabular-nums',
        cell: (t) =>
          rows.editing(t)
            ? cell('foreignPrice', 'Foreign Price', 'number', { step: '0.01', min: '0' })
            : formatMoney(t.foreignPrice, currencies.foreignCurrency),
      },
      {
        header: 'Max Sessions',
        sort: 'maxSessions',
        headClassName: 'text-right',
        className: 'text-right',
        cell: (t) =>
          rows.editing(t) ? cell('maxSessions', 'Max Sessions', 'number', { step: '1', min: '1' }) : t.maxSessions,
      },
      {
        header: 'Installments',
        headClassName: 'text-right',
        className: 'text-right',
        cell: (t) =>
          rows.editing(t) ? cell('installments', 'Installments', 'number', { step: '1', min: '1' }) : t.installments,
      },
      {
        header: 'Duration',
        className: 'whitespace-normal',
        cell: (t) =>
          rows.editing(t) ? (
            <div className="flex gap-1">
              {cell('weeks', 'Duration Weeks', 'number', { min: '0', step: '1', placeholder: 'W' })}
              {cell('days', 'Duration Days', 'number', { min: '0', step: '1', placeholder: 'D' })}
              {cell('months', 'Duration Months', 'number', { min: '0', step: '1', placeholder: 'M' })}
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
