import { useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { PlusIcon } from 'lucide-react';
import { toast } from 'sonner';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { ListCard } from '@/components/list-card';
import { PageHeader } from '@/components/page-header';
import { SortableHead } from '@/components/sortable-head';
import { PermissionDenied, RequireRole, STAFF_ROLES } from '@/components/require-role';
import { DeleteButton, EditButton, SaveCancelButtons } from '@/components/row-actions';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { TableCell, TableHead, TableRow } from '@/components/ui/table';
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
      <ListCard
        paged={paged}
        searchPlaceholder="Search by treatment name"
        searchLabel="Search treatments"
        label="Treatments"
        columns={8}
        empty={search.q ? 'No treatments match your search.' : 'No treatments found.'}
        pageSize={TREATMENT_PAGE_SIZE}
        head={
          <>
            <TableHead className="w-12">#</TableHead>
            <SortableHead column="treatmentName" sort={sort} onSort={paged.setSort}>
              Treatment Name
            </SortableHead>
            <SortableHead column="localPrice" sort={sort} onSort={paged.setSort} className="text-right">
              Local Price ({currencies.localCurrency})
            </SortableHead>
            <SortableHead column="foreignPrice" sort={sort} onSort={paged.setSort} className="text-right">
              Foreign Price ({currencySymbol(currencies.foreignCurrency)})
            </SortableHead>
            <SortableHead column="maxSessions" sort={sort} onSort={paged.setSort} className="text-right">
              Max Sessions
            </SortableHead>
            <TableHead className="text-right">Installments</TableHead>
            <TableHead>Duration</TableHead>
            <TableHead className="text-right">Actions</TableHead>
          </>
        }
      >
        {paged.list.data?.items.map((t, i) => {
          const editing = draft?.id === t._id;
          return (
            <TableRow key={t._id} data-testid="treatment-row" data-treatment-id={t._id}>
              <TableCell className="text-muted-foreground">{(paged.page - 1) * TREATMENT_PAGE_SIZE + i + 1}</TableCell>
              <TableCell className="font-medium">
                {editing ? cell('treatmentName', 'Treatment Name', 'text', { autoFocus: 'true' }) : t.treatmentName}
              </TableCell>
              <TableCell className="text-right tabular-nums">
                {editing
                  ? cell('localPrice', 'Local Price', 'number', { step: '0.01', min: '0' })
                  : formatMoney(t.localPrice, currencies.localCurrency)}
              </TableCell>
              <TableCell className="text-right tabular-nums">
                {editing
                  ? cell('foreignPrice', 'Foreign Price', 'number', { step: '0.01', min: '0' })
                  : formatMoney(t.foreignPrice, currencies.foreignCurrency)}
              </TableCell>
              <TableCell className="text-right">
                {editing ? cell('maxSessions', 'Max Sessions', 'number', { step: '1', min: '1' }) : t.maxSessions}
              </TableCell>
              <TableCell className="text-right">
                {editing ? cell('installments', 'Installments', 'number', { step: '1', min: '1' }) : t.installments}
              </TableCell>
              <TableCell>
                {editing ? (
                  <div className="flex gap-1">
                    {cell('weeks', 'Duration Weeks', 'number', { min: '0', step: '1', placeholder: 'W' })}
                    {cell('days', 'Duration Days', 'number', { min: '0', step: '1', placeholder: 'D' })}
                    {cell('months', 'Duration Months', 'number', { min: '0', step: '1', placeholder: 'M' })}
                  </div>
                ) : (
                  formatDuration(t.duration)
                )}
              </TableCell>
              <TableCell className="text-right">
                {!admin ? (
                  <span className="text-muted-foreground">—</span>
                ) : editing ? (
                  <SaveCancelButtons onSave={saveDraft} onCancel={cancel} pending={update.isPending} />
                ) : (
                  <div className="flex justify-end gap-2">
                    <EditButton size="icon" label={`Edit ${t.treatmentName}`} onClick={() => start(t)} />
                    <DeleteButton size="icon" label={`Delete ${t.treatmentName}`} onClick={() => del.ask(t)} />
                  </div>
                )}
              </TableCell>
            </TableRow>
          );
        })}
      </ListCard>
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
