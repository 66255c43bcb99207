import { useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { PlusIcon } from 'lucide-react';
import { toast } from 'sonner';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { DataList } from '@/components/data-list';
import { PageHeader } from '@/components/page-header';
import { EditableRowActions } from '@/components/row-actions';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
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

  const field = (key: 'name' | 'location', label: string, autoFocus = false) =>
    draft && (
      <Input
        aria-label={label}
        value={draft[key]}
        onChange={(e) => setDraft({ ...draft, [key]: e.target.value })}
        onKeyDown={(e) => e.key === 'Enter' && saveDraft()}
        autoFocus={autoFocus}
      />
    );

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
      <DataList
        paged={paged}
        items={paged.list.data?.items}
        sort={sort}
        searchPlaceholder="Search by name or location"
        searchLabel="Search branches"
        label="Branches"
        empty={search.q ? 'No branches match your search.' : 'No branches found.'}
        pageSize={BRANCH_PAGE_SIZE}
        rowKey={(b) => b._id}
        rowProps={(b) => ({ 'data-testid': 'branch-row', 'data-branch-id': b._id })}
        columns={[
          {
            header: 'Branch Name',
            sort: 'name',
            className: 'font-medium',
            cell: (b) => (draft?.id === b._id ? field('name', 'Branch Name', true) : b.name),
          },
          {
            header: 'Location',
            sort: 'location',
            cell: (b) => (draft?.id === b._id ? field('location', 'Location') : b.location),
          },
          {
            header: 'Action',
            headClassName: 'w-44 text-right',
            className: 'text-right',
            cell: (b) => (
              <EditableRowActions
                name={b.name}
                editing={draft?.id === b._id}
                canEdit={admin}
                canDelete={admin}
                onEdit={() => start(b)}
                onDelete={() => del.ask(b)}
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
            Are you sure you want to delete the branch <strong className="text-foreground">{del.target?.name}</strong>?
            This action cannot be undone.
          </>
        }
        onConfirm={del.confirm}
      />
    </div>
  );
}
