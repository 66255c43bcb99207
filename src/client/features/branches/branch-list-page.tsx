import { useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { PlusIcon } from 'lucide-react';
import { toast } from 'sonner';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { ListCard } from '@/components/list-card';
import { PageHeader } from '@/components/page-header';
import { SortableHead } from '@/components/sortable-head';
import { DeleteButton, EditButton, SaveCancelButtons } from '@/components/row-actions';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { TableCell, TableHead, TableRow } from '@/components/ui/table';
import { useIsAdmin } from '@/lib/auth';
import { validateListSearch } from '@/lib/list-search';
import { useUrlSearch } from '@/lib/list-route';
import { usePagedList } from '@/lib/use-paged-list';
import { useConfirmedDelete, useInlineEdit } from '@/lib/use-row-mutations';
import { trpc } from '@/lib/trpc';
import { BRANCH_PAGE_SIZE, branchListOptions, branchSort } from './branch-queries';

const REQUIRED = 'Please fill all the required fields.';

interface Branch {
  _id: string;
  name: string;
  location: string;
}

interface Draft {
  id: string;
  name: string;
  location: string;
}

/** docs/product.md#screens-and-routes, Branch list: #, Branch Name, Location, Action; inline edit; confirmed delete. */
export function BranchListPage() {
  const [search, onSearchChange] = useUrlSearch(validateListSearch);
  const admin = useIsAdmin();
  const queryClient = useQueryClient();
  const paged = usePagedList(branchListOptions(search), search, onSearchChange);
  const sort = branchSort(search);
  const invalidate = () => queryClient.invalidateQueries(trpc.branches.pathFilter());
  const { draft, setDraft, start, cancel, update } = useInlineEdit({
    toDraft: (b: Branch): Draft => ({ id: b._id, name: b.name, location: b.location }),
    mutationOptions: trpc.branches.update.mutationOptions,
    success: 'Branch updated successfully!',
    failure: 'Failed to update branch. Please try again.',
    invalidate,
  });
  // A refused delete (e.g. the branch still has users) toasts the server's message saying how many.
  const del = useConfirmedDelete({
    toVariables: (target: Branch) => ({ id: target._id }),
    mutationOptions: trpc.branches.delete.mutationOptions,
    success: 'Branch deleted successfully!',
    failure: 'Failed to delete branch. Please try again.',
    invalidate,
  });

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
      <ListCard
        paged={paged}
        searchPlaceholder="Search by name or location"
        searchLabel="Search branches"
        label="Branches"
        columns={4}
        empty={search.q ? 'No branches match your search.' : 'No branches found.'}
        pageSize={BRANCH_PAGE_SIZE}
        head={
          <>
            <TableHead className="w-14">#</TableHead>
            <SortableHead column="name" sort={sort} onSort={paged.setSort}>
              Branch Name
            </SortableHead>
            <SortableHead column="location" sort={sort} onSort={paged.setSort}>
              Location
            </SortableHead>
            <TableHead className="w-44 text-right">Action</TableHead>
          </>
        }
      >
        {paged.list.data?.items.map((b, i) => {
          const editing = draft?.id === b._id;
          return (
            <TableRow key={b._id} data-testid="branch-row" data-branch-id={b._id}>
              <TableCell className="text-muted-foreground">{(paged.page - 1) * BRANCH_PAGE_SIZE + i + 1}</TableCell>
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
                  <SaveCancelButtons onSave={saveDraft} onCancel={cancel} pending={update.isPending} />
                ) : (
                  <div className="flex justify-end gap-2">
                    <EditButton label={`Edit ${b.name}`} onClick={() => start(b)} />
                    <DeleteButton label={`Delete ${b.name}`} onClick={() => del.ask(b)} />
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
            Are you sure you want to delete the branch <strong className="text-foreground">{del.target?.name}</strong>?
            This action cannot be undone.
          </>
        }
        onConfirm={del.confirm}
      />
    </div>
  );
}
