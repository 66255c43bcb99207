import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { CheckIcon, PencilIcon, PlusIcon, Trash2Icon, XIcon } from 'lucide-react';
import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { LoadError } from '@/components/load-error';
import { PageHeader } from '@/components/page-header';
import { Pagination } from '@/components/pagination';
import { PermissionDenied, RequireRole, STAFF_ROLES } from '@/components/require-role';
import { SearchInput } from '@/components/search-input';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { useIsAdmin } from '@/lib/auth';
import { explainedMessage } from '@/lib/errors';
import type { ListSearch } from '@/lib/list-search';
import { trpc } from '@/lib/trpc';
import { formatAmount } from '../../../shared/money';
import { formatDuration, readTreatmentForm, REQUIRED_EDIT, toForm, type TreatmentForm } from './treatment-form';
import { TREATMENT_PAGE_SIZE, treatmentListOptions } from './treatment-queries';

/** spec section 2, All Treatments. */
export function TreatmentsPage({ search, onSearchChange }: { search: ListSearch; onSearchChange: (next: ListSearch) => void }) {
  return (
    <RequireRole roles={STAFF_ROLES} fallback={<PermissionDenied title="Access Denied" />}>
      <TreatmentsTable search={search} onSearchChange={onSearchChange} />
    </RequireRole>
  );
}

function TreatmentsTable({ search, onSearchChange }: { search: ListSearch; onSearchChange: (next: ListSearch) => void }) {
  const admin = useIsAdmin();
  const queryClient = useQueryClient();
  const page = search.page ?? 1;
  const list = useQuery({ ...treatmentListOptions(search), placeholderData: keepPreviousData });
  const [draft, setDraft] = useState<(TreatmentForm & { id: string }) | null>(null);
  const [toDelete, setToDelete] = useState<{ id: string; name: string } | null>(null);

  const invalidate = () => queryClient.invalidateQueries(trpc.treatments.pathFilter());

  const update = useMutation(
    trpc.treatments.update.mutationOptions({
      onSuccess: async () => {
        toast.success('Treatment updated successfully!');
        setDraft(null);
        await invalidate();
      },
      onError: (err) => toast.error(explainedMessage(err, 'Failed to update treatment. Please try again.')),
    }),
  );

  const remove = useMutation(
    trpc.treatments.delete.mutationOptions({
      onSuccess: async () => {
        toast.success('Treatment deleted successfully!');
        setToDelete(null);
        await invalidate();
      },
      onError: (err) => {
        toast.error(explainedMessage(err, 'Failed to delete treatment. Please try again.'));
        setToDelete(null);
      },
    }),
  );

  const items = list.data?.items;
  useEffect(() => {
    if (items && items.length === 0 && page > 1 && !list.isPlaceholderData) onSearchChange({ ...search, page: page - 1 });
  }, [items, page, list.isPlaceholderData, onSearchChange, search]);

  const saveDraft = () => {
    if (!draft) return;
    const read = readTreatmentForm(draft, REQUIRED_EDIT);
    if ('error' in read) {
      toast.error(read.error);
      return;
    }
    update.mutate({ id: draft.id, ...read.values });
  };

  const cell = (key: keyof TreatmentForm, label: string, type: 'text' | 'number' = 'number', extra: Record<string, string> = {}) =>
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
      <Card className="gap-4">
        <CardContent className="flex flex-wrap items-center justify-between gap-3">
          <SearchInput value={search.q ?? ''} onChange={(q) => onSearchChange({ q: q || undefined, page: undefined })} placeholder="Search by treatment name" aria-label="Search treatments" />
          {list.isFetching && !list.isPending && <Spinner className="text-muted-foreground" />}
        </CardContent>
        <CardContent>
          {list.isPending ? (
            <div className="flex justify-center py-12" data-testid="treatments-loading">
              <Spinner className="size-8 text-muted-foreground" />
            </div>
          ) : list.isError ? (
            <LoadError error={list.error} onRetry={() => void list.refetch()} />
          ) : (
            <>
              <Table containerClassName="max-h-[500px] overflow-y-auto rounded-md border" aria-label="Treatments">
                <TableHeader className="sticky top-0 z-10">
                  <TableRow>
                    <TableHead className="w-12">#</TableHead>
                    <TableHead>Treatment Name</TableHead>
                    <TableHead className="text-right">Local Price (LKR)</TableHead>
                    <TableHead className="text-right">Foreign Price ($)</TableHead>
                    <TableHead className="text-right">Max Sessions</TableHead>
                    <TableHead className="text-right">Installments</TableHead>
                    <TableHead>Duration</TableHead>
                    <TableHead className="text-right">Actions</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {items?.length === 0 && (
                    <TableRow>
                      <TableCell colSpan={8} className="py-10 text-center text-muted-foreground">
                        {search.q ? 'No treatments match your search.' : 'No treatments found.'}
                      </TableCell>
                    </TableRow>
                  )}
                  {items?.map((t, i) => {
                    const editing = draft?.id === t._id;
                    return (
                      <TableRow key={t._id} data-testid="treatment-row" data-treatment-id={t._id}>
                        <TableCell className="text-muted-foreground">{(page - 1) * TREATMENT_PAGE_SIZE + i + 1}</TableCell>
                        <TableCell className="font-medium">{editing ? cell('treatmentName', 'Treatment Name', 'text', { autoFocus: 'true' }) : t.treatmentName}</TableCell>
                        <TableCell className="text-right tabular-nums">{editing ? cell('localPrice', 'Local Price', 'number', { step: '0.01', min: '0' }) : formatAmount(t.localPrice)}</TableCell>
                        <TableCell className="text-right tabular-nums">{editing ? cell('foreignPrice', 'Foreign Price', 'number', { step: '0.01', min: '0' }) : `$${formatAmount(t.foreignPrice)}`}</TableCell>
                        <TableCell className="text-right">{editing ? cell('maxSessions', 'Max Sessions', 'number', { step: '1', min: '1' }) : t.maxSessions}</TableCell>
                        <TableCell className="text-right">{editing ? cell('installments', 'Installments', 'number', { step: '1', min: '1' }) : t.installments}</TableCell>
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
                            <div className="flex justify-end gap-2">
                              <Button size="sm" onClick={saveDraft} disabled={update.isPending}>
                                {update.isPending ? <Spinner /> : <CheckIcon />} Save
                              </Button>
                              <Button size="sm" variant="outline" onClick={() => setDraft(null)} disabled={update.isPending}>
                                <XIcon /> Cancel
                              </Button>
                            </div>
                          ) : (
                            <div className="flex justify-end gap-2">
                              <Button size="icon" variant="outline" onClick={() => setDraft({ id: t._id, ...toForm(t) })} aria-label={`Edit ${t.treatmentName}`} title="Edit">
                                <PencilIcon />
                              </Button>
                              <Button
                                size="icon"
                                variant="outline"
                                className="text-destructive hover:text-destructive"
                                onClick={() => setToDelete({ id: t._id, name: t.treatmentName })}
                                aria-label={`Delete ${t.treatmentName}`}
                                title="Delete"
                              >
                                <Trash2Icon />
                              </Button>
                            </div>
                          )}
                        </TableCell>
                      </TableRow>
                    );
                  })}
                </TableBody>
              </Table>
              {list.data && (
                <Pagination page={page} pageSize={TREATMENT_PAGE_SIZE} total={list.data.total} onPageChange={(p) => onSearchChange({ ...search, page: p > 1 ? p : undefined })} />
              )}
            </>
          )}
        </CardContent>
      </Card>
      <ConfirmDialog
        open={toDelete !== null}
        onOpenChange={(open) => !open && setToDelete(null)}
        pending={remove.isPending}
        description={
          <>
            Are you sure you want to delete the treatment <strong className="text-foreground">{toDelete?.name}</strong>? Its bookings are kept. This action cannot be undone.
          </>
        }
        onConfirm={() => toDelete && remove.mutate({ id: toDelete.id })}
      />
    </div>
  );
}
