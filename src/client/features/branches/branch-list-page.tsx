import { useQueryClient } from '@tanstack/react-query';
import { DataList } from '@/components/data-list';
import { AddLink, DeleteConfirm, RowEditActions } from '@/components/list-actions';
import { PageHeader } from '@/components/page-header';
import { Input } from '@/components/ui/input';
import { useIsAdmin } from '@/lib/auth';
import { validateListSearch } from '@/lib/list-search';
import { useUrlSearch } from '@/lib/list-route';
import { useEditableRows } from '@/lib/use-editable-rows';
import { usePagedList } from '@/lib/use-paged-list';
import { trpc } from '@/lib/trpc';
import { BRANCH_PAGE_SIZE, branchListOptions, branchSort } from './branch-queries';

const REQUIRED = 'Please fill all the required fields.';

interface Branch {
  _id: string;
  name: string;
  location: string;
}

/** docs/product.md#screens-and-routes, Branch list: #, Branch Name, Location, Action; inline edit; confirmed delete. */
export function BranchListPage() {
  const [search, onSearchChange] = useUrlSearch(validateListSearch);
  const admin = useIsAdmin();
  const queryClient = useQueryClient();
  const paged = usePagedList(branchListOptions(search), search, onSearchChange);
  // A refused delete (e.g. the branch still has users) toasts the server's message saying how many.
  const rows = useEditableRows({
    noun: 'Branch',
    toDraft: (b: Branch) => ({ id: b._id, name: b.name, location: b.location }),
    toInput: (d) =>
      !d.name.trim() || !d.location.trim() ? REQUIRED : { id: d.id, name: d.name.trim(), location: d.location.trim() },
    update: trpc.branches.update.mutationOptions,
    remove: trpc.branches.delete.mutationOptions,
    invalidate: () => queryClient.invalidateQueries(trpc.branches.pathFilter()),
  });

  return (
    <div>
      <PageHeader
        title="Branches"
        description="Locations of the institute and the clinic."
        actions={admin && <AddLink to="/branch/add-branch">Add Branch</AddLink>}
      />
      <DataList
        paged={paged}
        sort={branchSort(search)}
        searchPlaceholder="Search by name or location"
        searchLabel="Search branches"
        label="Branches"
        empty={search.q ? 'No branches match your search.' : 'No branches found.'}
        pageSize={BRANCH_PAGE_SIZE}
        record="branch"
        columns={[
          {
            header: 'Branch Name',
            wrap: true,
            sort: 'name',
            className: 'font-medium',
            cell: (b) =>
              rows.editing(b) ? <Input aria-label="Branch Name" autoFocus {...rows.bind('name')} /> : b.name,
          },
          {
            header: 'Location',
            wrap: true,
            sort: 'location',
            cell: (b) => (rows.editing(b) ? <Input aria-label="Location" {...rows.bind('location')} /> : b.location),
          },
          {
            header: 'Action',
            headClassName: 'w-44 text-right',
            className: 'text-right',
            cell: (b) => <RowEditActions rows={rows} row={b} name={b.name} canEdit={admin} canDelete={admin} />,
          },
        ]}
      />
      <DeleteConfirm dialog={rows.del.dialog} what="branch" name={rows.del.target?.name} onConfirm={rows.del.confirm} />
    </div>
  );
}
