/*
 * The users' reads: the paged list, the picker's search, the REST lists and one user
 * (docs/users.md). The writes and their rules are in users.service.ts.
 */
import { and, asc, count, desc, eq, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { preparedOn } from '../../db/prepared';
import { users } from '../../db/schema';
import { assertUserInScope, branchCondition, branchScopeOf, preparedBranchCondition } from '../branch-scope';
import type { Page } from '../../../shared/pagination';
import type { Role } from '../../../shared/roles';
import { assertId, containsPattern, ilikeContains, isUuid, type ServiceContext } from '../common';
import {
  afterCondition,
  countShape,
  keysetList,
  listShape,
  pageLimit,
  type ListShape,
  sortValueIn,
  totalKey,
} from '../keyset';
import { reusedPage } from '../read-cache';
import { loadUser, selectUsers, toUserDto, USER_NOT_FOUND, type UserDto } from './users.dto';
import type { TListUsersInput, TSearchUsersInput } from '@shared/schemas/users';

const SORT = {
  username: users.username,
  fullName: users.fullName,
  email: users.email,
  role: users.role,
  createdAt: users.createdAt,
};

/**
 * What decides the SQL of a users page (the values travel as parameters): one built-once query per
 * shape (db/prepared.ts), instead of drizzle building the select on every call.
 */
interface UsersShape extends ListShape<TListUsersInput['sortBy']> {
  search: boolean;
  role: boolean;
  branchId: boolean;
}

const P = sql.placeholder;

function usersWhere(s: UsersShape): SQL | undefined {
  return and(
    s.search
      ? or(
          ilikeContains(users.username, P('search')),
          ilikeContains(users.fullName, P('search')),
          ilikeContains(users.email, P('search')),
        )
      : undefined,
    s.role ? eq(users.role, P('role')) : undefined,
    s.branchId ? eq(users.branchId, P('branchId')) : undefined,
    preparedBranchCondition(s.scope),
  );
}

const keysetOf = (sortBy: UsersShape['sortBy'], sortDir: UsersShape['sortDir']) =>
  ({ sortKey: SORT[sortBy], sortDir, plainColumn: true, id: users.id, idDir: 'asc' }) as const;

const usersPage = (db: Db, s: UsersShape) =>
  preparedOn(db, `users.list ${JSON.stringify(s)}`, (d) => {
    const order = s.sortDir === 'asc' ? asc(SORT[s.sortBy]) : desc(SORT[s.sortBy]);
    const after = s.after ? afterCondition(keysetOf(s.sortBy, s.sortDir), P('afterValue'), P('afterId')) : undefined;
    return selectUsers(d)
      .where(and(usersWhere(s), after))
      .orderBy(order, asc(users.id))
      .limit(pageLimit(s.limit))
      .offset(s.offset ? P('offset') : 0)
      .prepare('users_list');
  });

const usersCount = (db: Db, s: UsersShape) =>
  preparedOn(db, `users.count ${JSON.stringify(countShape(s))}`, (d) =>
    d.select({ n: count() }).from(users).where(usersWhere(s)).prepare('users_count'),
  );

/**
 * The users screen's page. In the embedded mode the same caller's same page is reused until the data
 * changes, looked for before any of its work is done (docs/performance.md#embedded-reuse).
 */
export function listUsers(ctx: ServiceContext, input: TListUsersInput): Promise<Page<UserDto>> {
  return reusedPage(ctx.deps, { list: 'users', callerId: ctx.actor.id, input }, () => usersListPage(ctx, input));
}

async function usersListPage(ctx: ServiceContext, input: TListUsersInput): Promise<Page<UserDto>> {
  const { db } = ctx;
  const empty = { items: [], total: 0, page: input.page, pageSize: input.pageSize };
  if (input.branchId && !isUuid(input.branchId)) return empty;
  const scope = await branchScopeOf(ctx);
  const shape: UsersShape = {
    ...listShape(input, scope),
    search: !!input.search,
    role: !!input.role,
    branchId: !!input.branchId,
  };
  const values = {
    search: input.search ? containsPattern(input.search) : undefined,
    role: input.role,
    branchId: input.branchId,
    scopeBranchId: scope?.branchId,
  };
  const sortKey = SORT[input.sortBy];
  return keysetList(ctx, input, {
    keyset: {
      ...keysetOf(input.sortBy, input.sortDir),
      sortValueOf: sortValueIn(users, sortKey, users.id),
    },
    totalKey: totalKey('users', ctx.actor.id, input),
    rows: (start) =>
      usersPage(db, { ...shape, after: !!start.cursor, offset: start.offset > 0 }).execute({
        ...values,
        afterValue: start.cursor?.value,
        afterId: start.cursor?.id,
        offset: start.offset,
      }),
    count: async () => (await usersCount(db, shape).execute(values))[0]?.n ?? 0,
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
  const digits = text.replace(/\D/g, '');
  const match = or(
    ilikeContains(users.username, text),
    ilikeContains(users.fullName, text),
    ilikeContains(users.email, text),
    digits.length >= 3 ? ilikeContains(users.phone, text) : undefined,
  );
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
