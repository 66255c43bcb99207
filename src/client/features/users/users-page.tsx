import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { PlusIcon } from 'lucide-react';
import { toast } from 'sonner';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { ListCard } from '@/components/list-card';
import { NativeSelect } from '@/components/native-select';
import { PageHeader } from '@/components/page-header';
import { SortableHead } from '@/components/sortable-head';
import { DeleteButton, EditButton, SaveCancelButtons } from '@/components/row-actions';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { TableCell, TableHead, TableRow } from '@/components/ui/table';
import { storeUser, useCurrentUser } from '@/lib/auth';
import { usePagedList } from '@/lib/use-paged-list';
import { useUrlSearch } from '@/lib/list-route';
import { useConfirmedDelete, useInlineEdit } from '@/lib/use-row-mutations';
import { trpc } from '@/lib/trpc';
import { isAdmin, ROLE_LABELS, ROLES, type Role } from '@shared/roles';
import {
  canManage,
  roleOptionsFor,
  USERS_PAGE_SIZE,
  usersListOptions,
  validateUsersSearch,
  userSort,
  type User,
} from './user-queries';

interface Draft {
  id: string;
  username: string;
  fullName: string;
  role: Role;
  branchId: string;
}

const REQUIRED = 'Please fill all the required fields.';

/** docs/product.md#screens-and-routes, Users table: inline edit of username, full name, role and branch; confirmed delete. */
export function UsersPage() {
  const [search, onSearchChange] = useUrlSearch(validateUsersSearch);
  const me = useCurrentUser();
  const queryClient = useQueryClient();
  const paged = usePagedList(usersListOptions(search), search, onSearchChange);
  const sort = userSort(search);
  const branches = useQuery(trpc.branches.options.queryOptions());
  const canDelete = isAdmin(me.role);
  const invalidate = () => queryClient.invalidateQueries(trpc.users.pathFilter());
  const { draft, setDraft, start, cancel, update } = useInlineEdit({
    toDraft: (u: User): Draft => ({
      id: u._id,
      username: u.username,
      fullName: u.fullName,
      role: u.role,
      branchId: u.branch?._id ?? '',
    }),
    mutationOptions: trpc.users.update.mutationOptions,
    success: 'User updated successfully!',
    failure: 'Failed to update user. Please try again.',
    invalidate,
    onSaved: (user) => {
      // Editing one's own row changes the header's name too.
      if (user._id === me._id) {
        queryClient.setQueryData(trpc.auth.me.queryKey(), user);
        storeUser(user);
      }
    },
  });
  const del = useConfirmedDelete({
    toVariables: (u: User) => ({ id: u._id }),
    mutationOptions: trpc.users.delete.mutationOptions,
    success: 'User deleted successfully!',
    failure: 'Failed to delete user. Please try again.',
    invalidate,
  });

  const saveDraft = () => {
    if (!draft) return;
    if (!draft.username.trim() || !draft.fullName.trim()) {
      toast.error(REQUIRED);
      return;
    }
    update.mutate({
      id: draft.id,
      username: draft.username.trim(),
      fullName: draft.fullName.trim(),
      role: draft.role,
      branchId: draft.branchId || null,
    });
  };

  const grantable = roleOptionsFor(me.role);

  return (
    <div>
      <PageHeader
        title="Users"
        description="Staff, students and customers of every branch."
        actions={
          <Button asChild>
            <Link to="/users/add-user">
              <PlusIcon /> Add User
            </Link>
          </Button>
        }
      />
      <ListCard
        paged={paged}
        searchPlaceholder="Search username, name or email"
        searchLabel="Search users"
        filters={
          <NativeSelect
            aria-label="Filter by role"
            className="w-44"
            value={search.role ?? ''}
            onChange={(e) => paged.setFilter({ role: (e.target.value || undefined) as Role | undefined })}
          >
            <option value="">All roles</option>
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {ROLE_LABELS[r]}
              </option>
            ))}
          </NativeSelect>
        }
        label="Users"
        columns={7}
        empty={search.q || search.role ? 'No users match your search.' : 'No users found.'}
        pageSize={USERS_PAGE_SIZE}
        head={
          <>
            <TableHead className="w-12">#</TableHead>
            <SortableHead column="username" sort={sort} onSort={paged.setSort}>
              Username
            </SortableHead>
            <SortableHead column="fullName" sort={sort} onSort={paged.setSort}>
              Full Name
            </SortableHead>
            <SortableHead column="email" sort={sort} onSort={paged.setSort}>
              Email
            </SortableHead>
            <SortableHead column="role" sort={sort} onSort={paged.setSort} className="w-40">
              Role
            </SortableHead>
            <TableHead className="w-48">Branch</TableHead>
            <TableHead className="w-44 text-right">Actions</TableHead>
          </>
        }
      >
        {paged.list.data?.items.map((u, i) => {
          const editing = draft?.id === u._id;
          const self = u._id === me._id;
          const manageable = canManage(me, u);
          // Nobody changes their own role; the current role stays listed so the select can show it.
          const roleChoices = grantable.includes(u.role) ? grantable : [u.role, ...grantable];
          return (
            <TableRow key={u._id} data-testid="user-row" data-user-id={u._id}>
              <TableCell className="text-muted-foreground">{(paged.page - 1) * USERS_PAGE_SIZE + i + 1}</TableCell>
              <TableCell className="font-medium">
                {editing ? (
                  <Input
                    aria-label="Username"
                    value={draft.username}
                    onChange={(e) => setDraft({ ...draft, username: e.target.value })}
                    autoFocus
                  />
                ) : (
                  <Link to="/users/$userId" params={{ userId: u._id }} className="underline-offset-4 hover:underline">
                    {u.username}
                  </Link>
                )}
              </TableCell>
              <TableCell>
                {editing ? (
                  <Input
                    aria-label="Full Name"
                    value={draft.fullName}
                    onChange={(e) => setDraft({ ...draft, fullName: e.target.value })}
                  />
                ) : (
                  u.fullName
                )}
              </TableCell>
              <TableCell className="text-muted-foreground">{u.email}</TableCell>
              <TableCell>
                {editing ? (
                  <NativeSelect
                    aria-label="Role"
                    value={draft.role}
                    disabled={self}
                    onChange={(e) => setDraft({ ...draft, role: e.target.value as Role })}
                  >
                    {roleChoices.map((r) => (
                      <option key={r} value={r}>
                        {ROLE_LABELS[r]}
                      </option>
                    ))}
                  </NativeSelect>
                ) : (
                  <Badge variant="secondary" data-testid="user-role">
                    {ROLE_LABELS[u.role]}
                  </Badge>
                )}
              </TableCell>
              <TableCell>
                {editing ? (
                  <NativeSelect
                    aria-label="Branch"
                    value={draft.branchId}
                    onChange={(e) => setDraft({ ...draft, branchId: e.target.value })}
                  >
                    <option value="">No branch</option>
                    {branches.data?.map((b) => (
                      <option key={b._id} value={b._id}>
                        {b.name}
                      </option>
                    ))}
                  </NativeSelect>
                ) : (
                  (u.branch?.name ?? <span className="text-muted-foreground">—</span>)
                )}
              </TableCell>
              <TableCell className="text-right">
                {editing ? (
                  <SaveCancelButtons iconOnly onSave={saveDraft} onCancel={cancel} pending={update.isPending} />
                ) : (
                  <div className="flex justify-end gap-2">
                    {manageable && <EditButton size="icon-sm" label={`Edit ${u.username}`} onClick={() => start(u)} />}
                    {canDelete && !self && manageable && (
                      <DeleteButton size="icon-sm" label={`Delete ${u.username}`} onClick={() => del.ask(u)} />
                    )}
                    {!manageable && <span className="text-muted-foreground">—</span>}
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
            Are you sure you want to delete the user <strong className="text-foreground">{del.target?.username}</strong>{' '}
            ({del.target?.email})? Their enrolments and bookings are kept. This action cannot be undone.
          </>
        }
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
    </div>
  );
}
