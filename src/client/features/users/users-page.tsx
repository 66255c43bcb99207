import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { toast } from 'sonner';
import { SelectFilter } from '@/components/filter-field';
import { DeleteConfirm } from '@/components/delete-confirm';
import { RowEditActions } from '@/components/row-actions';
import { listPage, type TableHook } from '@/components/list-page';
import { NativeSelect } from '@/components/native-select';
import { Handle } from '@/components/person-name';
import { Badge } from '@/components/ui/badge';
import { storeUser, useCurrentUser } from '@/lib/auth';
import { readWith } from '@/lib/read-draft';
import { useEditableRows } from '@/lib/use-editable-rows';
import { trpc } from '@/lib/trpc';
import { isAdmin, ROLE_LABELS, type Role } from '@shared/roles';
import { ZUpdateUserInput } from '@shared/schemas/users';
import { canManage, ROLE_FILTER, roleOptionsFor, userList, type User } from './user-queries';

interface Draft {
  id: string;
  username: string;
  fullName: string;
  role: Role;
  branchId: string;
}

const userLink = (u: User) => (
  <Link to="/users/$userId" params={{ userId: u._id }} className="underline-offset-4 hover:underline">
    <Handle text={u.username} />
  </Link>
);

const useUsersTable: TableHook<typeof userList> = ({ paged }) => {
  const me = useCurrentUser();
  const queryClient = useQueryClient();
  const branches = useQuery(trpc.branches.options.queryOptions());
  const canDelete = isAdmin(me.role);
  const rows = useEditableRows({
    noun: 'User',
    name: (u) => u.username,
    toDraft: (u: User): Draft => ({
      id: u._id,
      username: u.username,
      fullName: u.fullName,
      role: u.role,
      branchId: u.branch?._id ?? '',
    }),
    toInput: readWith(ZUpdateUserInput),
    procedures: trpc.users,
    onSaved: (user) => {
      // Editing one's own row changes the header's name too.
      if (user._id === me._id) {
        queryClient.setQueryData(trpc.auth.me.queryKey(), user);
        storeUser(user);
      }
    },
  });
  const { del } = rows;

  const grantable = roleOptionsFor(me.role);

  return {
    filters: <SelectFilter {...ROLE_FILTER} {...paged.filter('role')} />,
    columns: [
      rows.column('username', 'Username', { sort: 'username', main: true, show: userLink }),
      rows.column('fullName', 'Full Name', { sort: 'fullName' }),
      {
        header: 'Email',
        wrap: true,
        sort: 'email',
        className: 'text-muted-foreground',
        cell: (u) => <Handle text={u.email} />,
      },
      {
        header: 'Role',
        sort: 'role',
        headClassName: 'w-40',
        cell: (u) =>
          rows.editing(u) ? (
            // Nobody changes their own role; the current role stays listed so the select can show it.
            <NativeSelect
              aria-label="Role"
              disabled={u._id === me._id}
              {...rows.bind('role')}
              choices={(grantable.includes(u.role) ? grantable : [u.role, ...grantable]).map((r) => ({
                value: r,
                label: ROLE_LABELS[r],
              }))}
            />
          ) : (
            <Badge variant="secondary" data-testid="user-role">
              {ROLE_LABELS[u.role]}
            </Badge>
          ),
      },
      {
        header: 'Branch',
        wrap: true,
        headClassName: 'w-48',
        cell: (u) =>
          rows.editing(u) ? (
            <NativeSelect
              aria-label="Branch"
              {...rows.bind('branchId')}
              empty="No branch"
              choices={branches.data?.map((b) => ({ value: b._id, label: b.name }))}
            />
          ) : (
            (u.branch?.name ?? <span className="text-muted-foreground">—</span>)
          ),
      },
      {
        header: 'Actions',
        headClassName: 'w-44 text-right',
        className: 'text-right',
        cell: (u) => {
          const manageable = canManage(me, u);
          return (
            <RowEditActions
              rows={rows}
              row={u}
              size="icon-sm"
              canEdit={manageable}
              canDelete={canDelete && manageable && u._id !== me._id}
            />
          );
        },
      },
    ],
    dialog: (
      <DeleteConfirm
        dialog={del.dialog}
        what="user"
        name={del.target?.username}
        detail={<> ({del.target?.email})</>}
        consequence="Their enrolments and bookings are kept."
        onConfirm={() => {
          // docs/product.md#validation: refused here as well as on the server.
          if (del.target?._id === me._id) {
            toast.error('You cannot delete your own account.');
            del.close();
            return;
          }
          del.confirm();
        }}
      />
    ),
  };
};

/** docs/product.md#screens-and-routes, Users table: inline edit of username, full name, role and branch; confirmed delete. */
export const UsersPage = listPage(userList, useUsersTable);
