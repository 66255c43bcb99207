/**
 * Rooms (docs/appointments.md#resources): per branch, each with a capacity (how many sessions it
 * holds at once). Admins change them; staff read them, a limited manager their branch's only.
 */
import { and, asc, count, eq, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { firstRow } from '../../db/rows';
import { appointments, branches, rooms } from '../../db/schema';
import { AppError, isUniqueViolation } from '../../errors';
import {
  RESOURCE_MESSAGES,
  roomHasAppointments,
  type TCreateRoomInput,
  type TListRoomsInput,
  type TRoom,
  type TRoomList,
  type TUpdateRoomInput,
} from '@shared/schemas/practitioners';
import { recordCatalogueChange, type CatalogueView } from '../audit/audit.service';
import { branchScopeOf } from '../branch-scope';
import type { ServiceContext } from '../context';
import { assertId, isUuid } from '../ids';
import { branchColumnInScope, toRoomDtos } from '../practitioners/practitioners.read';

const M = RESOURCE_MESSAGES;
type RoomRow = typeof rooms.$inferSelect;

const auditView = (r: TRoom): CatalogueView => ({
  name: `${r.name} (${r.branch.name})`,
  fields: { name: r.name, branch: r.branch.name, capacity: r.capacity },
});

async function dtoOf(db: Db, row: RoomRow): Promise<TRoom> {
  return firstRow(await toRoomDtos(db, [row]));
}

async function assertNameFree(db: Db, branchId: string, name: string, exceptId?: string) {
  const [clash] = await db
    .select({ id: rooms.id })
    .from(rooms)
    .where(
      and(
        eq(rooms.branchId, branchId),
        eq(sql`lower(${rooms.name})`, name.toLowerCase()),
        exceptId ? ne(rooms.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  if (clash) throw new AppError('CONFLICT', M.duplicateRoom);
}

/** The unique index (branch, lower(name)) decides a race of two rooms of one name: the same 409. */
async function withDuplicateAs409<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError('CONFLICT', M.duplicateRoom);
    throw err;
  }
}

/** GET /api/rooms?branchId: by branch name, then room name. */
export async function listRooms(ctx: ServiceContext, input: TListRoomsInput): Promise<TRoomList> {
  if (input.branchId && !isUuid(input.branchId)) return { data: [] };
  const rows = await ctx.db
    .select({ r: rooms })
    .from(rooms)
    .innerJoin(branches, eq(branches.id, rooms.branchId))
    .where(
      and(
        branchColumnInScope(await branchScopeOf(ctx), rooms.branchId),
        input.branchId ? eq(rooms.branchId, input.branchId) : undefined,
      ),
    )
    .orderBy(asc(branches.name), asc(rooms.name))
    .limit(2000);
  return {
    data: await toRoomDtos(
      ctx.db,
      rows.map((x) => x.r),
    ),
  };
}

export async function getRoom(ctx: ServiceContext, id: string): Promise<TRoom> {
  assertId(id, 'Room');
  const [row] = await ctx.db
    .select()
    .from(rooms)
    .where(and(eq(rooms.id, id), branchColumnInScope(await branchScopeOf(ctx), rooms.branchId)))
    .limit(1);
  if (!row) throw new AppError('NOT_FOUND', M.roomNotFound);
  return dtoOf(ctx.db, row);
}

export async function createRoom(ctx: ServiceContext, input: TCreateRoomInput): Promise<TRoom> {
  assertId(input.branchId, 'Branch');
  const [branch] = await ctx.db.select({ id: branches.id }).from(branches).where(eq(branches.id, input.branchId));
  if (!branch) throw new AppError('NOT_FOUND', M.branchNotFound);
  await assertNameFree(ctx.db, input.branchId, input.name);
  return withDuplicateAs409(() =>
    ctx.db.transaction(async (tx) => {
      const row = firstRow(
        await tx
          .insert(rooms)
          .values({ branchId: input.branchId, name: input.name, capacity: input.capacity })
          .returning(),
      );
      const dto = await dtoOf(tx, row);
      await recordCatalogueChange(tx, ctx, 'room', row.id, null, auditView(dto));
      return dto;
    }),
  );
}

/** PUT /api/rooms/{id}: name and capacity; the room stays at its branch. */
export async function updateRoom(ctx: ServiceContext, input: TUpdateRoomInput): Promise<TRoom> {
  assertId(input.id, 'Room');
  return withDuplicateAs409(() =>
    ctx.db.transaction(async (tx) => {
      const [old] = await tx.select().from(rooms).where(eq(rooms.id, input.id)).for('update').limit(1);
      if (!old) throw new AppError('NOT_FOUND', M.roomNotFound);
      if (input.name !== undefined) await assertNameFree(tx, old.branchId, input.name, old.id);
      const set = {
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.capacity !== undefined ? { capacity: input.capacity } : {}),
      };
      const row = Object.keys(set).length
        ? firstRow(await tx.update(rooms).set(set).where(eq(rooms.id, old.id)).returning())
        : old;
      const after = await dtoOf(tx, row);
      await recordCatalogueChange(tx, ctx, 'room', row.id, auditView(await dtoOf(tx, old)), auditView(after));
      return after;
    }),
  );
}

/**
 * DELETE /api/rooms/{id}: a room any appointment names (of any status, so the history keeps its
 * room) is refused with 409 and how many there are.
 */
export async function deleteRoom(ctx: ServiceContext, id: string): Promise<{ message: string }> {
  assertId(id, 'Room');
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx.select().from(rooms).where(eq(rooms.id, id)).for('update').limit(1);
    if (!row) throw new AppError('NOT_FOUND', M.roomNotFound);
    const [used] = await tx.select({ n: count() }).from(appointments).where(eq(appointments.roomId, id));
    const n = used?.n ?? 0;
    if (n > 0) throw new AppError('CONFLICT', roomHasAppointments(n), { appointmentCount: n });
    const before = await dtoOf(tx, row);
    await tx.delete(rooms).where(eq(rooms.id, id));
    await recordCatalogueChange(tx, ctx, 'room', id, auditView(before), null);
    return { message: M.roomDeleted };
  });
}
