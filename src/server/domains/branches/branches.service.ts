import { and, asc, count, desc, eq, ne, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { firstRow } from '../../db/rows';
import { branches, users } from '../../db/schema';
import type { Page } from '../../../shared/pagination';
import { AppError } from '../../errors';
import { recordCatalogueChange } from '../audit/audit.service';
import type { SystemContext } from '../context';
import { assertId } from '../ids';
import { numberedPage } from '../paging';
import { ilikeContains } from '../sql-conditions';
import type { TCreateBranchInput, TListBranchesInput, TUpdateBranchInput } from '@shared/schemas/branches';
import type { TBranch } from '@shared/schemas/branches.output';
import { afterWrite } from '../read-cache';

type BranchRow = typeof branches.$inferSelect;

/** The answer typed as its contract: a field added to one only fails the build. */
export function toBranchDto(b: BranchRow): TBranch {
  return {
    _id: b.id,
    name: b.name,
    location: b.location,
    phone: b.phone ?? null,
    createdAt: b.createdAt.toISOString(),
    updatedAt: b.updatedAt.toISOString(),
  };
}
export type BranchDto = TBranch;

const DUPLICATE = 'A branch with this name already exists.';

async function assertNameFree(db: Db, name: string, exceptId?: string) {
  const clash = await db
    .select({ id: branches.id })
    .from(branches)
    .where(and(eq(sql`lower(${branches.name})`, name.toLowerCase()), exceptId ? ne(branches.id, exceptId) : undefined))
    .limit(1);
  if (clash.length) throw new AppError('CONFLICT', DUPLICATE);
}

const SORT = { name: branches.name, location: branches.location, createdAt: branches.createdAt };

export async function listBranches({ db }: SystemContext, input: TListBranchesInput): Promise<Page<BranchDto>> {
  const where = input.search
    ? or(ilikeContains(branches.name, input.search), ilikeContains(branches.location, input.search))
    : undefined;
  const order = input.sortDir === 'asc' ? asc(SORT[input.sortBy]) : desc(SORT[input.sortBy]);
  const rows = db.select().from(branches).where(where).$dynamic();
  const total = db.select({ n: count() }).from(branches).where(where);
  return numberedPage(input, rows, [order, asc(branches.id)], total, toBranchDto);
}

/** The REST list answers every branch (`{ branches }`); branches are few per organisation. */
export async function listAllBranches({ db }: SystemContext): Promise<BranchDto[]> {
  const rows = await db.select().from(branches).orderBy(asc(branches.name)).limit(5000);
  return rows.map(toBranchDto);
}

export async function getBranch({ db }: SystemContext, id: string): Promise<BranchDto> {
  assertId(id, 'Branch');
  const [row] = await db.select().from(branches).where(eq(branches.id, id)).limit(1);
  if (!row) throw new AppError('NOT_FOUND', 'Branch not found.');
  return toBranchDto(row);
}

/** A branch as the audit trail records it. */
const auditView = (b: BranchRow) => ({
  name: b.name,
  fields: { name: b.name, location: b.location, phone: b.phone },
});

export async function createBranch(ctx: SystemContext, input: TCreateBranchInput): Promise<BranchDto> {
  await assertNameFree(ctx.db, input.name);
  return afterWrite(
    ctx.deps,
    ctx.db.transaction(async (tx) => {
      const row = firstRow(
        await tx
          .insert(branches)
          .values({ name: input.name, location: input.location, phone: input.phone ?? null })
          .returning(),
      );
      await recordCatalogueChange(tx, ctx, 'branch', row.id, null, auditView(row));
      return toBranchDto(row);
    }),
  );
}

export async function updateBranch(ctx: SystemContext, input: TUpdateBranchInput): Promise<BranchDto> {
  assertId(input.id, 'Branch');
  await assertNameFree(ctx.db, input.name, input.id);
  return afterWrite(
    ctx.deps,
    ctx.db.transaction(async (tx) => {
      const [before] = await tx.select().from(branches).where(eq(branches.id, input.id)).for('update').limit(1);
      if (!before) throw new AppError('NOT_FOUND', 'Branch not found.');
      const row = firstRow(
        await tx
          .update(branches)
          .set({ name: input.name, location: input.location, phone: input.phone })
          .where(eq(branches.id, input.id))
          .returning(),
      );
      await recordCatalogueChange(tx, ctx, 'branch', row.id, auditView(before), auditView(row));
      return toBranchDto(row);
    }),
  );
}

/** docs/users.md: a branch with users cannot be deleted; the answer says how many it has. */
export async function deleteBranch(ctx: SystemContext, id: string): Promise<{ message: string }> {
  assertId(id, 'Branch');
  return afterWrite(
    ctx.deps,
    ctx.db.transaction(async (tx) => {
      const [row] = await tx.select().from(branches).where(eq(branches.id, id)).for('update').limit(1);
      if (!row) throw new AppError('NOT_FOUND', 'Branch not found.');
      const [users_] = await tx.select({ n: count() }).from(users).where(eq(users.branchId, id));
      const n = users_?.n ?? 0;
      if (n > 0) {
        throw new AppError(
          'CONFLICT',
          `This branch has ${n} ${n === 1 ? 'user' : 'users'}. Move or delete them before deleting the branch.`,
          { userCount: n },
        );
      }
      await tx.delete(branches).where(eq(branches.id, id));
      await recordCatalogueChange(tx, ctx, 'branch', id, auditView(row), null);
      return { message: 'Branch deleted successfully!' };
    }),
  );
}

/** Id and name of every branch, for the user forms' dropdowns. */
export async function branchOptions({ db }: SystemContext) {
  const rows = await db
    .select({ _id: branches.id, name: branches.name, location: branches.location })
    .from(branches)
    .orderBy(asc(branches.name))
    .limit(5000);
  return rows;
}
