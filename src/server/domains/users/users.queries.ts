/*
 * The users' reads: the paged list, the picker's search, the REST lists and one user
 * (docs/users.md). The writes and their rules are in users.service.ts.
 */
import { and, asc, count, desc, eq, or, sql, type Placeholder, type SQL } from 'drizzle-orm';
import { users } from '../../db/schema';
import { assertUserInScope, branchCondition, branchScopeOf } from '../branch-scope';
import type { Page } from '../../../shared/pagination';
import type { Role } from '../../../shared/roles';
import type { ServiceContext } from '../context';
import { assertId, isUuid } from '../ids';
import { ilikeContains } from '../sql-conditions';
import { keysetList, pageRows, sortValueIn, totalKey } from '../keyset';
import { reusedPage } from '../read-cache';
import { loadUser, selectUsers, toUserDto, USER_NOT_FOUND, type UserDto } from './users.dto';
import type { TListUsersInput, TSearchUsersInput } from '@shared/schemas/users';
import { personMatches } from '../person-search';

const SORT = {
  username: users.username,
  fullName: users.fullName,
  email: users.email,
  role: users.role,
  createdAt: users.createdAt,
};

/**
 * The users screen's page. In the embedded mode the same caller's same page is reused until the data
 * changes, looked for before any of its work is done (docs/performance.md#embedded-reuse).
 */
export function listUsers(ctx: ServiceContext, input: TListUsersInput): Promise<Page<UserDto>> {
  return reusedPage(ctx.deps, { list: 'users', callerId: ctx.actor.id, input }, () => usersListPage(ctx, input));
}

/**
 * The page's filters. Its value filters may be placeholders: a page without a search is a statement
 * built once per shape (docs/performance.md#statements-built-once), its values given at each call.
 */
function usersWhere(f: {
  search?: string;
  role?: Placeholder | Role;
  branchId?: Placeholder | string;
  scope: { branchId: Placeholder | string | null } | null;
}): SQL | undefined {
  return and(
    f.search
      ? or(
          ilikeContains(users.username, f.search),
          ilikeContains(users.email, f.search),
          personMatches(users, f.search),
        )
      : undefined,
    f.role ? eq(users.role, f.role) : undefined,
    f.branchId ? eq(users.branchId, f.branchId) : undefined,
    branchCondition(f.scope),
  );
}

async function usersListPage(ctx: ServiceContext, input: TListUsersInput): Promise<Page<UserDto>> {
  const { db } = ctx;
  const empty = { items: [], total: 0, page: input.page, pageSize: input.pageSize };
  if (input.branchId && !isUuid(input.branchId)) return empty;
  const scope = await branchScopeOf(ctx);
  const where = usersWhere({ search: input.search, role: input.role, branchId: input.branchId, scope });
  const sortKey = SORT[input.sortBy];
  const order = [input.sortDir === 'asc' ? asc(sortKey) : desc(sortKey), asc(users.id)];
  return keysetList(ctx, input, {
    keyset: {
      sortKey,
      plainColumn: true,
      id: users.id,
      idDir: 'asc',
      sortValueOf: sortValueIn(users, sortKey, users.id),
    },
    totalKey: totalKey('users', ctx.actor.id, input),
    rows: (start) =>
      pageRows(db, start, {
        statement: input.search ? null : `users ${input.sortBy} ${input.sortDir}`,
        pageSize: input.pageSize,
        order,
        plain: (after) => selectUsers(db).where(and(where, after)).$dynamic(),
        prepared: (d, p) =>
          selectUsers(d)
            .where(usersWhere({ role: p.role, branchId: p.branchId, scope: scope && { branchId: p.scope ?? null } }))
            .$dynamic(),
        values: { role: input.role, branchId: input.branchId, scope: scope?.branchId },
      }),
    count: async () => (await db.select({ n: count() }).from(users).where(where))[0]?.n ?? 0,
    cursorRow: (r) => r,
    items: (rows) => rows.map(toUserDto),
  });
}

/**
 * The user picker (docs/users.md#finding-a-user): users in the caller's branch scope whose
 * username, full name or email contains the text (the trigram indexes of migration 0001 serve
 * these), or whose phone does when the text has digits; an exact email first, then by name.
 */
export async function searchUsers(ctx: ServiceContext, input: TSearchUsersInput): Promise<UserDto[]> {
  const text = input.query;
  const match = or(ilikeContains(users.username, text), ilikeContains(users.email, text), personMatches(users, text));
  const rows = await selectUsers(ctx.db)
    .where(and(match, input.role ? eq(users.role, input.role) : undefined, branchCondition(await branchScopeOf(ctx))))
    .orderBy(sql`${users.email} = ${text.toLowerCase()} desc`, asc(users.fullName), asc(users.id))
    .limit(input.limit);
  return rows.map(toUserDto);
}

/** The documented REST list answers a bare array (docs/architecture.md); capped so one call stays bounded. */
export async function listAllUsers(ctx: ServiceContext, role?: Role): Promise<UserDto[]> {
  const rows = await selectUsers(ctx.db)
    .where(and(role ? eq(users.role, role) : undefined, branchCondition(await branchScopeOf(ctx))))
    .orderBy(desc(users.createdAt), asc(users.id))
    .limit(10_000);
  return rows.map(toUserDto);
}

export async function getUser(ctx: ServiceContext, id: string): Promise<UserDto> {
  assertId(id, 'User');
  await assertUserInScope(ctx, id, USER_NOT_FOUND);
  return loadUser(ctx.db, id);
}
