import { useQueryClient } from '@tanstack/react-query';
import { AddLink, DeleteConfirm, RowEditActions } from '@/components/list-actions';
import { ListPage, type TableHook } from '@/components/list-page';
import { useIsAdmin } from '@/lib/auth';
import { useEditableRows } from '@/lib/use-editable-rows';
import { trpc } from '@/lib/trpc';
import { branchList } from './branch-queries';

const REQUIRED = 'Please fill all the required fields.';

interface Branch {
  _id: string;
  name: string;
  location: string;
}

/** docs/product.md#screens-and-routes, Branch list: #, Branch Name, Location, Action; inline edit; confirmed delete. */
export function BranchListPage() {
  return (
    <ListPage
      list={branchList}
      names={{ record: 'branch', plural: 'branches', search: 'Search by name or location' }}
      header={{ title: 'Branches', description: 'Locations of the institute and the clinic.' }}
      actions={
        <AddLink to="/branch/add-branch" adminOnly>
          Add Branch
        </AddLink>
      }
      useTable={useBranchTable}
    />
  );
}

const useBranchTable: TableHook<typeof branchList> = () => {
  const admin = useIsAdmin();
  const queryClient = useQueryClient();
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
  return {
    columns: [
      {
        header: 'Branch Name',
        wrap: true,
        sort: 'name',
        className: 'font-medium',
        cell: (b) => rows.input(b, 'name', 'Branch Name', { autoFocus: true }) ?? b.name,
      },
      {
        header: 'Location',
        wrap: true,
        sort: 'location',
        cell: (b) => rows.input(b, 'location', 'Location') ?? b.location,
      },
      {
        header: 'Action',
        headClassName: 'w-44 text-right',
        className: 'text-right',
        cell: (b) => <RowEditActions rows={rows} row={b} name={b.name} canEdit={admin} canDelete={admin} />,
      },
    ],
    dialog: (
      <DeleteConfirm dialog={rows.del.dialog} what="branch" name={rows.del.target?.name} onConfirm={rows.del.confirm} />
    ),
  };
};
