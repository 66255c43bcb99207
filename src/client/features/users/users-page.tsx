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
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { Spinner } from '@/components/ui/spinner';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { storeUser, useCurrentUser } from '@/lib/auth';
import { explainedMessage } from '@/lib/errors';
import { trpc } from '@/lib/trpc';
import { isAdmin, ROLE_LABELS, ROLES, type Role } from '../../../shared/roles';
import { NativeSelect } from './native-select';
import { canManage, roleOptionsFor, USERS_PAGE_SIZE, usersListOptions, type User, type UsersSearch } from './user-queries';

interface Draft {
  id: string;
  username: string;
  fullName: string;
  role: Role;
  branchId: string;
}

const REQUIRED = 'Please fill all the required fields.';

/** spec section 2, Users table: inline edit of username, full name, role and branch; confirmed delete. */
export function UsersPage({ search, onSearchChange }: { search: UsersSearch; onSearchChange: (next: UsersSearch) => void }) {
  const me = useCurrentUser();
  const queryClient = useQueryClient();
  const page = search.page ?? 1;
  const list = useQuery({ ...usersListOptions(search), placeholderData: keepPreviousData });
  const branches = useQuery(trpc.branches.options.queryOptions());
  const [draft, setDraft] = useState<Draft | null>(null);
  const [toDelete, setToDelete] = useState<User | null>(null);
  const canDelete = isAdmin(me.role);

  const invalidate = () => queryClient.invalidateQueries(trpc.users.pathFilter());

  const update = useMutation(
    trpc.users.update.mutationOptions({
      onSuccess: async (user) => {
        toast.success('User updated successfully!');
        setDraft(null);
        // Editing one's own row changes the header's name too.
        if (user._id === me._id) {
          queryClient.setQueryData(trpc.auth.me.queryKey(), user);
          storeUser(user);
        }
        await invalidate();
      },
      onError: (err) => toast.error(explainedMessage(err, 'Failed to update user. Please try again.')),
    }),
  );

  const remove = useMutation(
    trpc.users.delete.mutationOptions({
      onSuccess: async () => {
        toast.success('User deleted successfully!');
        setToDelete(null);
        await invalidate();
      },
      onError: (err) => {
        toast.error(explainedMessage(err, 'Failed to delete user. Please try again.'));
        setToDelete(null);
      },
    }),
  );

  const items = list.data?.items;
  useEffect(() => {
    if (items && items.length === 0 && page > 1 && !list.isPlaceholderData) onSearchChange({ ...search, page: page - 1 });
  }, [items, page, list.isPlaceholderData, onSearchChange, search]);

  const startEdit = (u: User) => setDraft({ id: u._id, username: u.username, fullName: u.fullName, role: u.role, branchId: u.branch?._id ?? '' });

  const saveDraft = () => {
    if (!draft) return;
    if (!draft.username.trim() || !draft.fullName.trim()) {
      toast.error(REQUIRED);
      return;
    }
    update.mutate({ id: draft.id, username: draft.username.trim(), fullName: draft.fullName.trim(), role: draft.role, branchId: draft.branchId || null });
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
      <Card className="gap-4">
        <CardContent className="flex flex-wrap items-center gap-3">
          <SearchInput
            value={search.q ?? ''}
            onChange={(q) => onSearchChange({ ...search, q: q || undefined, page: undefined })}
            placeholder="Search username, name or email"
            aria-label="Search users"
          />
          <NativeSelect
            aria-label="Filter by role"
            className="w-44"
            value={search.role ?? ''}
            onChange={(e) => onSearchChange({ ...search, role: (e.target.value || undefined) as Role | undefined, page: undefined })}
          >
            <option value="">All roles</option>
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {ROLE_LABELS[r]}
              </option>
            ))}
          </NativeSelect>
          {list.isFetching && !list.isPending && <Spinner className="text-muted-foreground" />}
        </CardContent>
        <CardContent>
          {list.isError ? (
            <LoadError error={list.error} onRetry={() => void list.refetch()} />
          ) : (
            <>
              <Table containerClassName="max-h-[500px] overflow-y-auto rounded-md border" aria-label="Users">
                <TableHeader className="sticky top-0 z-10">
                  <TableRow>
                    <TableHead className="w-12">#</TableHead>
                    <TableHead>Username</TableHead>
                    <TableHead>Full Name</TableHead>
                    <TableHead>Email</TableHead>
                    <TableHead className="w-40">Role</TableHead>
                    <TableHead className="w-48">Branch</TableHead>
                    <TableHead className="w-44 text-right">Actions</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {list.isPending &&
                    Array.from({ length: 4 }, (_, i) => (
                      <TableRow key={i} data-testid="loading-row">
                        <TableCell colSpan={7}>
                          <Skeleton className="h-6 w-full" />
                        </TableCell>
                      </TableRow>
                    ))}
                  {items?.length === 0 && (
                    <TableRow>
                      <TableCell colSpan={7} className="py-10 text-center text-muted-foreground">
                        {search.q || search.role ? 'No users match your search.' : 'No users found.'}
                      </TableCell>
                    </TableRow>
                  )}
                  {items?.map((u, i) => {
                    const editing = draft?.id === u._id;
                    const self = u._id === me._id;
                    const manageable = canManage(me, u);
                    // Nobody changes their own role; the current role stays listed so the select can show it.
                    const roleChoices = grantable.includes(u.role) ? grantable : [u.role, ...grantable];
                    return (
                      <TableRow key={u._id} data-testid="user-row" data-user-id={u._id}>
                        <TableCell className="text-muted-foreground">{(page - 1) * USERS_PAGE_SIZE + i + 1}</TableCell>
                        <TableCell className="font-medium">
                          {editing ? (
                            <Input aria-label="Username" value={draft.username} onChange={(e) => setDraft({ ...draft, username: e.target.value })} autoFocus />
                          ) : (
                            u.username
                          )}
                        </TableCell>
                        <TableCell>
                          {editing ? <Input aria-label="Full Name" value={draft.fullName} onChange={(e) => setDraft({ ...draft, fullName: e.target.value })} /> : u.fullName}
                        </TableCell>
                        <TableCell className="text-muted-foreground">{u.email}</TableCell>
                        <TableCell>
                          {editing ? (
                            <NativeSelect aria-label="Role" value={draft.role} disabled={self} onChange={(e) => setDraft({ ...draft, role: e.target.value as Role })}>
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
                            <NativeSelect aria-label="Branch" value={draft.branchId} onChange={(e) => setDraft({ ...draft, branchId: e.target.value })}>
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
                              {manageable && (
                                <Button size="sm" variant="outline" onClick={() => startEdit(u)} aria-label={`Edit ${u.username}`}>
                                  <PencilIcon /> Edit
                                </Button>
                              )}
                              {canDelete && !self && manageable && (
                                <Button
                                  size="sm"
                                  variant="outline"
                                  className="text-destructive hover:text-destructive"
                                  onClick={() => setToDelete(u)}
                                  aria-label={`Delete ${u.username}`}
                                >
                                  <Trash2Icon /> Delete
                                </Button>
                              )}
                              {!manageable && <span className="text-muted-foreground">—</span>}
                            </div>
                          )}
                        </TableCell>
                      </TableRow>
                    );
                  })}
                </TableBody>
              </Table>
              {list.data && (
                <Pagination page={page} pageSize={USERS_PAGE_SIZE} total={list.data.total} onPageChange={(p) => onSearchChange({ ...search, page: p > 1 ? p : undefined })} />
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
            Are you sure you want to delete the user <strong className="text-foreground">{toDelete?.username}</strong> ({toDelete?.email})? Their enrolments and
            bookings are kept. This action cannot be undone.
          </>
        }
        onConfirm={() => {
          if (!toDelete) return;
          // spec section 5: refused here as well as on the server.
          if (toDelete._id === me._id) {
            toast.error('You cannot delete your own account.');
            setToDelete(null);
            return;
          }
          remove.mutate({ id: toDelete._id });
        }}
      />
    </div>
  );
}
