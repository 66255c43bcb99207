import { useQueryClient } from '@tanstack/react-query';
import { DataList } from '@/components/data-list';
import { AddLink, DeleteConfirm, RowEditActions } from '@/components/list-actions';
import { PageHeader } from '@/components/page-header';
import { PermissionDenied, RequireRole, STAFF_ROLES } from '@/components/require-role';
import { Input } from '@/components/ui/input';
import { useIsAdmin } from '@/lib/auth';
import { useCurrencies } from '@/lib/format';
import { validateListSearch, type ListSearch } from '@/lib/list-search';
import { useUrlSearch } from '@/lib/list-route';
import { usePagedList } from '@/lib/use-paged-list';
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
import { TREATMENT_PAGE_SIZE, treatmentListOptions, treatmentSort } from './treatment-queries';

/** docs/product.md#screens-and-routes, All Treatments. */
export function TreatmentsPage() {
  const [search, onSearchChange] = useUrlSearch(validateListSearch);
  return (
    <RequireRole roles={STAFF_ROLES} fallback={<PermissionDenied title="Access Denied" />}>
      <TreatmentsTable search={search} onSearchChange={onSearchChange} />
    </RequireRole>
  );
}

function TreatmentsTable({
  search,
  onSearchChange,
}: {
  search: ListSearch;
  onSearchChange: (next: ListSearch) => void;
}) {
  const admin = useIsAdmin();
  const currencies = useCurrencies();
  const queryClient = useQueryClient();
  const paged = usePagedList(treatmentListOptions(search), search, onSearchChange);
  const sort = treatmentSort(search);
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

  return (
    <div>
      <PageHeader
        title="All Treatments"
        description="The clinic's treatments, their prices and sessions."
        actions={admin && <AddLink to="/treatment/create-treatement">Add Treatment</AddLink>}
      />
      <DataList
        paged={paged}
        sort={sort}
        searchPlaceholder="Search by treatment name"
        searchLabel="Search treatments"
        label="Treatments"
        empty={search.q ? 'No treatments match your search.' : 'No treatments found.'}
        pageSize={TREATMENT_PAGE_SIZE}
        record="treatment"
        columns={[
          {
            header: 'Treatment Name',
            wrap: true,
            sort: 'treatmentName',
            className: 'font-medium',
            cell: (t) =>
              rows.editing(t)
                ? cell('treatmentName', 'Treatment Name', 'text', { autoFocus: 'true' })
                : t.treatmentName,
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
              rows.editing(t)
                ? cell('installments', 'Installments', 'number', { step: '1', min: '1' })
                : t.installments,
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
              <RowEditActions
                rows={rows}
                row={t}
                name={t.treatmentName}
                size="icon"
                canEdit={admin}
                canDelete={admin}
              />
            ),
          },
        ]}
      />
      <DeleteConfirm
        dialog={rows.del.dialog}
        what="treatment"
        name={rows.del.target?.treatmentName}
        consequence="Its bookings are kept."
        onConfirm={rows.del.confirm}
      />
    </div>
  );
}
