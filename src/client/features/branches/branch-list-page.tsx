import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { CheckIcon, PencilIcon, PlusIcon, Trash2Icon, XIcon } from 'lucide-react';
import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { LoadError } from '@/components/load-error';
import { PageHeader } from '@/components/page-header';
import { Pagination } from '@/components/pagination';
import { SearchInput } from '@/components/search-input';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { Spinner } from '@/components/ui/spinner';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { useIsAdmin } from '@/lib/auth';
import { explainedMessage } from '@/lib/errors';
import type { ListSearch } from '@/lib/list-search';
import { trpc } from '@/lib/trpc';
import { BRANCH_PAGE_SIZE, branchListOptions } from './branch-queries';

const REQUIRED = 'Please fill all the required fields.';

interface Draft {
  id: string;
  name: string;
  location: string;
}

/** spec section 2, Branch list: #, Branch Name, Location, Action; inline edit; confirmed delete. */
export function BranchListPage({ search, onSearchChange }: { search: ListSearch; onSearchChange: (next: ListSearch) => void }) {
  const admin = useIsAdmin();
  const queryClient = useQueryClient();
  const page = search.page ?? 1;
  const list = useQuery({ ...branchListOptions(search), placeholderData: keepPreviousData });
  const [draft, setDraft] = useState<Draft | null>(null);
  const [toDelete, setToDelete] = useState<{ id: string; name: string } | null>(null);

  const invalidate = () => queryClient.invalidateQueries(trpc.branches.pathFilter());

  const update = useMutation(
    trpc.branches.update.mutationOptions({
      onSuccess: async () => {
        toast.success('Branch updated successfully!');
        setDraft(null);
        await invalidate();
      },
      onError: (err) => toast.error(explainedMessage(err, 'Failed to update branch. Please try again.')),
    }),
  );

  const remove = useMutation(
    trpc.branches.delete.mutationOptions({
      onSuccess: async () => {
        toast.success('Branch deleted successfully!');
        setToDelete(null);
        await invalidate();
      },
      onError: (err) => {
        // e.g. the branch still has users: the server's message says how many.
        toast.error(explainedMessage(err, 'Failed to delete branch. Please try again.'));
        setToDelete(null);
      },
    }),
  );

  // Deleting the last row of the last page leaves an empty page: step back.
  const items = list.data?.items;
  useEffect(() => {
    if (items && items.length === 0 && page > 1 && !list.isPlaceholderData) onSearchChange({ ...search, page: page - 1 });
  }, [items, page, list.isPlaceholderData, onSearchChange, search]);

  const saveDraft = () => {
    if (!draft) return;
    if (!draft.name.trim() || !draft.location.trim()) {
      toast.error(REQUIRED);
      return;
    }
    update.mutate({ id: draft.id, name: draft.name.trim(), location: draft.location.trim() });
  };

  return (
    <div>
      <PageHeader
        title="Branches"
        description="Locations of the institute and the clinic."
        actions={
          admin && (
            <Button asChild>
              <Link to="/branch/add-branch">
                <PlusIcon /> Add Branch
              </Link>
            </Button>
          )
        }
      />
      <Card className="gap-4">
        <CardContent className="flex flex-wrap items-center justify-between gap-3">
          <SearchInput
            value={search.q ?? ''}
            onChange={(q) => onSearchChange({ q: q || undefined, page: undefined })}
            placeholder="Search by name or location"
            aria-label="Search branches"
          />
          {list.isFetching && !list.isPending && <Spinner className="text-muted-foreground" />}
        </CardContent>
        <CardContent>
          {list.isError ? (
            <LoadError error={list.error} onRetry={() => void list.refetch()} />
          ) : (
            <>
              <Table containerClassName="max-h-[500px] overflow-y-auto rounded-md border" aria-label="Branches">
                <TableHeader className="sticky top-0 z-10">
                  <TableRow>
                    <TableHead className="w-14">#</TableHead>
                    <TableHead>Branch Name</TableHead>
                    <TableHead>Location</TableHead>
                    <TableHead className="w-44 text-right">Action</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {list.isPending &&
                    Array.from({ length: 4 }, (_, i) => (
                      <TableRow key={i} data-testid="loading-row">
                        <TableCell colSpan={4}>
                          <Skeleton className="h-6 w-full" />
                        </TableCell>
                      </TableRow>
                    ))}
                  {items?.length === 0 && (
                    <TableRow>
                      <TableCell colSpan={4} className="py-10 text-center text-muted-foreground">
                        {search.q ? 'No branches match your search.' : 'No branches found.'}
                      </TableCell>
                    </TableRow>
                  )}
                  {items?.map((b, i) => {
                    const editing = draft?.id === b._id;
                    return (
                      <TableRow key={b._id} data-testid="branch-row" data-branch-id={b._id}>
                        <TableCell className="text-muted-foreground">{(page - 1) * BRANCH_PAGE_SIZE + i + 1}</TableCell>
                        <TableCell className="font-medium">
                          {editing ? (
                            <Input
                              aria-label="Branch Name"
                              value={draft.name}
                              onChange={(e) => setDraft({ ...draft, name: e.target.value })}
                              onKeyDown={(e) => e.key === 'Enter' && saveDraft()}
                              autoFocus
                            />
                          ) : (
                            b.name
                          )}
                        </TableCell>
                        <TableCell>
                          {editing ? (
                            <Input
                              aria-label="Location"
                              value={draft.location}
                              onChange={(e) => setDraft({ ...draft, location: e.target.value })}
                              onKeyDown={(e) => e.key === 'Enter' && saveDraft()}
                            />
                          ) : (
                            b.location
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
                              <Button size="sm" variant="outline" onClick={() => setDraft({ id: b._id, name: b.name, location: b.location })} aria-label={`Edit ${b.name}`}>
                                <PencilIcon /> Edit
                              </Button>
                              <Button
                                size="sm"
                                variant="outline"
                                className="text-destructive hover:text-destructive"
                                onClick={() => setToDelete({ id: b._id, name: b.name })}
                                aria-label={`Delete ${b.name}`}
                              >
                                <Trash2Icon /> Delete
                              </Button>
                            </div>
                          )}
                        </TableCell>
                      </TableRow>
                    );
                  })}
                </TableBody>
              </Table>
              {list.data && <Pagination page={page} pageSize={BRANCH_PAGE_SIZE} total={list.data.total} onPageChange={(p) => onSearchChange({ ...search, page: p > 1 ? p : undefined })} />}
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
            Are you sure you want to delete the branch <strong className="text-foreground">{toDelete?.name}</strong>? This action cannot be undone.
          </>
        }
        onConfirm={() => toDelete && remove.mutate({ id: toDelete.id })}
      />
    </div>
  );
}
