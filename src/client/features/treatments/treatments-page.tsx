import { useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { PlusIcon } from 'lucide-react';
import { toast } from 'sonner';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { DataList } from '@/components/data-list';
import { PageHeader } from '@/components/page-header';
import { PermissionDenied, RequireRole, STAFF_ROLES } from '@/components/require-role';
import { EditableRowActions } from '@/components/row-actions';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { useIsAdmin } from '@/lib/auth';
import { useCurrencies } from '@/lib/format';
import { validateListSearch, type ListSearch } from '@/lib/list-search';
import { useUrlSearch } from '@/lib/list-route';
import { usePagedList } from '@/lib/use-paged-list';
import { useConfirmedDelete, useInlineEdit } from '@/lib/use-row-mutations';
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
  const invalidate = () => queryClient.invalidateQueries(trpc.treatments.pathFilter());
  const { draft, setDraft, start, cancel, update } = useInlineEdit({
    toDraft: (t: Treatment) => ({ id: t._id, ...toForm(t) }),
    mutationOptions: trpc.treatments.update.mutationOptions,
    success: 'Treatment updated successfully!',
    failure: 'Failed to update treatment. Please try again.',
    invalidate,
  });
  const del = useConfirmedDelete({
    toVariables: (t: Treatment) => ({ id: t._id }),
    mutationOptions: trpc.treatments.delete.mutationOptions,
    success: 'Treatment deleted successfully!',
    failure: 'Failed to delete treatment. Please try again.',
    invalidate,
  });

  const saveDraft = () => {
    if (!draft) return;
    const read = readTreatmentForm(draft, REQUIRED_EDIT);
    if ('error' in read) {
      toast.error(read.error);
      return;
    }
    update.mutate({ id: draft.id, ...read.values });
  };

  const cell = (
    key: keyof TreatmentForm,
    label: string,
    type: 'text' | 'number' = 'number',
    extra: Record<string, string> = {},
  ) =>
    draft && (
      <Input
        aria-label={label}
        type={type}
        value={draft[key]}
        onChange={(e) => setDraft({ ...draft, [key]: e.target.value })}
        onKeyDown={(e) => e.key === 'Enter' && saveDraft()}
        className="h-8 min-w-16"
        {...extra}
      />
    );

  return (
    <div>
      <PageHeader
        title="All Treatments"
        description="The clinic's treatments, their prices and sessions."
        actions={
          admin && (
            <Button asChild>
              <Link to="/treatment/create-treatement">
                <PlusIcon /> Add Treatment
              </Link>
            </Button>
          )
        }
      />
      <DataList
        paged={paged}
        items={paged.list.data?.items}
        sort={sort}
        searchPlaceholder="Search by treatment name"
        searchLabel="Search treatments"
        label="Treatments"
        empty={search.q ? 'No treatments match your search.' : 'No treatments found.'}
        pageSize={TREATMENT_PAGE_SIZE}
        rowKey={(t) => t._id}
        rowProps={(t) => ({ 'data-testid': 'treatment-row', 'data-treatment-id': t._id })}
        columns={[
          {
            header: 'Treatment Name',
            sort: 'treatmentName',
            className: 'font-medium',
            cell: (t) =>
              draft?.id === t._id
                ? cell('treatmentName', 'Treatment Name', 'text', { autoFocus: 'true' })
                : t.treatmentName,
          },
          {
            header: `Local Price (${currencies.localCurrency})`,
            sort: 'localPrice',
            headClassName: 'text-right',
            className: 'text-right tabular-nums',
            cell: (t) =>
              draft?.id === t._id
                ? cell('localPrice', 'Local Price', 'number', { step: '0.01', min: '0' })
                : formatMoney(t.localPrice, currencies.localCurrency),
          },
          {
            header: `Foreign Price (${currencySymbol(currencies.foreignCurrency)})`,
            sort: 'foreignPrice',
            headClassName: 'text-right',
            className: 'text-right tabular-nums',
            cell: (t) =>
              draft?.id === t._id
                ? cell('foreignPrice', 'Foreign Price', 'number', { step: '0.01', min: '0' })
                : formatMoney(t.foreignPrice, currencies.foreignCurrency),
          },
          {
            header: 'Max Sessions',
            sort: 'maxSessions',
            headClassName: 'text-right',
            className: 'text-right',
            cell: (t) =>
              draft?.id === t._id
                ? cell('maxSessions', 'Max Sessions', 'number', { step: '1', min: '1' })
                : t.maxSessions,
          },
          {
            header: 'Installments',
            headClassName: 'text-right',
            className: 'text-right',
            cell: (t) =>
              draft?.id === t._id
                ? cell('installments', 'Installments', 'number', { step: '1', min: '1' })
                : t.installments,
          },
          {
            header: 'Duration',
            cell: (t) =>
              draft?.id === t._id ? (
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
              <EditableRowActions
                name={t.treatmentName}
                size="icon"
                editing={draft?.id === t._id}
                canEdit={admin}
                canDelete={admin}
                onEdit={() => start(t)}
                onDelete={() => del.ask(t)}
                onSave={saveDraft}
                onCancel={cancel}
                pending={update.isPending}
              />
            ),
          },
        ]}
      />
      <ConfirmDialog
        {...del.dialog}
        description={
          <>
            Are you sure you want to delete the treatment{' '}
            <strong className="text-foreground">{del.target?.treatmentName}</strong>? Its bookings are kept. This action
            cannot be undone.
          </>
        }
        onConfirm={del.confirm}
      />
    </div>
  );
}
