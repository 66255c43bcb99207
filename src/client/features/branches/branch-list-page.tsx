import { RowEditActions } from '@/components/row-actions';
import { listPage, type TableHook } from '@/components/list-page';
import { useIsAdmin } from '@/lib/auth';
import { readWith } from '@/lib/read-draft';
import { useEditableRows } from '@/lib/use-editable-rows';
import { trpc } from '@/lib/trpc';
import { ZUpdateBranchInput } from '@shared/schemas/branches';
import { branchList } from './branch-queries';

interface Branch {
  _id: string;
  name: string;
  location: string;
  phone: string | null;
}

const useBranchTable: TableHook<typeof branchList> = () => {
  const admin = useIsAdmin();
  // A refused delete (e.g. the branch still has users) toasts the server's message saying how many.
  const rows = useEditableRows({
    noun: 'Branch',
    name: (b) => b.name,
    toDraft: (b: Branch) => ({ id: b._id, name: b.name, location: b.location, phone: b.phone ?? '' }),
    toInput: readWith(ZUpdateBranchInput),
    procedures: trpc.branches,
  });
  return {
    columns: [
      rows.column('name', 'Branch Name', { sort: 'name', main: true }),
      rows.column('location', 'Location', { sort: 'location' }),
      // The number a person is told to call about this branch's appointments (else the organisation's).
      {
        header: 'Phone',
        cell: (b) => rows.input(b, 'phone', 'Phone', { type: 'tel', maxLength: 30 }) ?? b.phone ?? '—',
      },
      {
        header: 'Action',
        headClassName: 'w-44 text-right',
        className: 'text-right',
        cell: (b) => <RowEditActions rows={rows} row={b} canEdit={admin} canDelete={admin} />,
      },
    ],
    dialog: rows.deleteConfirm(),
  };
};

/** docs/product.md#screens-and-routes, Branch list: #, Branch Name, Location, Phone, Action; inline edit; confirmed delete. */
export const BranchListPage = listPage(branchList, useBranchTable);
