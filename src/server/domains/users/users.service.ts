import { and, eq, ne, sql } from 'drizzle-orm';
import { hashPassword } from '../../auth/passwords';
import { invalidateUserSessions, type Actor } from '../../auth/sessions';
import type { Db } from '../../db/client';
import { firstRow } from '../../db/rows';
import { branches, users } from '../../db/schema';
import { assertBranchInScope, assertUserInScope } from '../branch-scope';
import { AppError, dbErrorText, isUniqueViolation } from '../../errors';
import { grantableRoles, isAdmin, ROLE_LABELS, type Role } from '../../../shared/roles';
import type { ServiceContext } from '../context';
import { assertId, isUuid } from '../ids';
import { detachUserFromBookings } from '../bookings/bookings.service';
import { detachUserFromEnrollments } from '../enrollments/enrollments.service';
import { deleteFile, storeImage } from '../files/files.service';
import { changedFieldNames, fieldChanges, recordAudit } from '../audit/audit.service';
import { loadUser, USER_NOT_FOUND, type UserDto } from './users.dto';
import type { TCreateUserInput, TUpdateProfileInput, TUpdateUserInput, UploadedImage } from '@shared/schemas/users';
import { afterWrite, invalidateReads } from '../read-cache';
import { NIC_TAKEN, nicMatchesBirthDay } from '@shared/schemas/person';
import { assertNicAgrees, assertNicFree, personColumns } from './person-details';

export const EMAIL_TAKEN = 'A user with this email already exists.';
export const USERNAME_TAKEN = 'This username is already taken.';
export const DELETE_ADMINS_ONLY = 'Only admins and superadmins can delete users.';
export const DELETE_SELF = 'You cannot delete your own account.';
export const OWN_ROLE = 'You cannot change your own role.';
export const OWN_BRANCH = 'You cannot move your own account to another branch.';
export const SUPERADMIN_PROTECTED = 'Only a superadmin can edit or delete a superadmin.';
export const BRANCH_UNKNOWN = 'The selected branch does not exist.';

function cannotGrant(role: Role) {
  return new AppError('FORBIDDEN', `You cannot assign the ${ROLE_LABELS[role]} role.`);
}

/** docs/users.md: superadmin grants any role, admin any but superadmin, manager user/student/customer. */
export function assertCanGrant(actor: Pick<Actor, 'role'>, role: Role) {
  if (!grantableRoles(actor.role).includes(role)) throw cannotGrant(role);
}

/**
 * Whom an actor may edit or delete: anyone whose current role they could grant, and themselves.
 * So an admin never touches a superadmin, and a manager never rewrites a manager or an admin.
 */
function assertCanManage(actor: Actor, target: { id: string; role: Role }) {
  if (target.id === actor.id) return;
  if (target.role === 'superadmin' && actor.role !== 'superadmin')
    throw new AppError('FORBIDDEN', SUPERADMIN_PROTECTED);
  if (!grantableRoles(actor.role).includes(target.role)) {
    throw new AppError('FORBIDDEN', `You cannot manage a user with the ${ROLE_LABELS[target.role]} role.`);
  }
}

async function assertEmailFree(db: Db, email: string, exceptId?: string) {
  const [clash] = await db
    .select({ id: users.id })
    .from(users)
    .where(
      and(eq(sql`lower(${users.email})`, email.trim().toLowerCase()), exceptId ? ne(users.id, exceptId) : undefined),
    )
    .limit(1);
  if (clash) throw new AppError('CONFLICT', EMAIL_TAKEN);
}

async function assertUsernameFree(db: Db, username: string, exceptId?: string) {
  const [clash] = await db
    .select({ id: users.id })
    .from(users)
    .where(
      and(eq(sql`lower(${users.username})`, username.toLowerCase()), exceptId ? ne(users.id, exceptId) : undefined),
    )
    .limit(1);
  if (clash) throw new AppError('CONFLICT', USERNAME_TAKEN);
}

async function assertBranchExists(db: Db, branchId: string) {
  if (!isUuid(branchId)) throw new AppError('BAD_REQUEST', BRANCH_UNKNOWN);
  const [b] = await db.select({ id: branches.id }).from(branches).where(eq(branches.id, branchId)).limit(1);
  if (!b) throw new AppError('BAD_REQUEST', BRANCH_UNKNOWN);
}

/** Two concurrent writes can both pass the checks; the unique indexes decide, with the same messages. */
async function withUniqueMessages<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    const constraint = dbErrorText(err, 'constraint_name') ?? '';
    if (constraint.includes('nic')) throw new AppError('CONFLICT', NIC_TAKEN);
    throw new AppError('CONFLICT', constraint.includes('username') ? USERNAME_TAKEN : EMAIL_TAKEN);
  }
}

export async function createUser(ctx: ServiceContext, input: TCreateUserInput): Promise<UserDto> {
  const { db, actor } = ctx;
  assertCanGrant(actor, input.role);
  await assertBranchInScope(ctx, input.branchId);
  await assertBranchExists(db, input.branchId);
  await assertEmailFree(db, input.email);
  await assertUsernameFree(db, input.username);
  await assertNicFree(db, input.nic);
  const passwordHash = await hashPassword(input.password);
  return afterWrite(
    ctx.deps,
    withUniqueMessages(() =>
      db.transaction(async (tx) => {
        const rows = await tx
          .insert(users)
          .values({
            username: input.username,
            fullName: input.fullName,
            email: input.email.trim().toLowerCase(),
            passwordHash,
            role: input.role,
            branchId: input.branchId,
            ...personColumns(input),
          })
          .returning({ id: users.id });
        const created = await loadUser(tx, firstRow(rows).id);
        await recordAudit(tx, ctx, {
          action: 'create',
          entityType: 'user',
          entityId: created._id,
          summary: `Created user ${created.username} (${ROLE_LABELS[created.role]})${created.branch ? ` in ${created.branch.name}` : ''}`,
          changes: fieldChanges(null, auditView(created)),
        });
        return created;
      }),
    ),
  );
}

/** A user as the audit trail records it (docs/audit.md): what a person reads, never the password hash. */
function auditView(u: UserDto) {
  return {
    username: u.username,
    fullName: u.fullName,
    email: u.email,
    role: u.role,
    branch: u.branch?.name ?? null,
    phone: u.phone,
    address: u.address,
    nic: u.nic,
    dateOfBirth: u.dateOfBirth,
    gender: u.gender,
    emergencyContact: u.emergencyContact
      ? [u.emergencyContact.name, u.emergencyContact.relation, u.emergencyContact.phone].filter(Boolean).join(', ')
      : null,
    guardianPhone: u.guardianPhone ?? null,
    picture: u.image,
  };
}

const FIELD_LABELS = {
  fullName: 'full name',
  nic: 'NIC',
  dateOfBirth: 'date of birth',
  emergencyContact: 'emergency contact',
  guardianPhone: 'guardian phone',
};

/**
 * One entry per edit, named for what matters most: a role change, else a branch move, else an
 * update; the summary names everything that changed. Nothing changed, nothing recorded.
 */
async function recordUserEdit(tx: Db, ctx: ServiceContext, before: UserDto, after: UserDto, own: boolean) {
  const changes = fieldChanges(auditView(before), auditView(after));
  if (changes.length === 0) return;
  const name = before.username;
  const role = changes.find((c) => c.field === 'role');
  const branch = changes.find((c) => c.field === 'branch');
  const rest = changes.filter((c) => c !== role && c !== branch);
  const parts: string[] = [];
  if (role) parts.push(`Changed the role of ${name} from ${ROLE_LABELS[before.role]} to ${ROLE_LABELS[after.role]}`);
  if (branch) {
    const move = `from ${before.branch?.name ?? 'no branch'} to ${after.branch?.name ?? 'no branch'}`;
    parts.push(parts.length ? `moved ${move}` : `Moved ${name} ${move}`);
  }
  if (rest.length) {
    const fields = changedFieldNames(rest, FIELD_LABELS);
    if (own && !parts.length) parts.push(`${name} updated their own ${fields}`);
    else parts.push(parts.length ? `updated ${fields}` : `Updated ${fields} of ${name}`);
  }
  await recordAudit(tx, ctx, {
    action: role ? 'role_change' : branch ? 'branch_move' : 'update',
    entityType: 'user',
    entityId: after._id,
    summary: parts.join('; '),
    changes,
  });
}

type Changes = Partial<typeof users.$inferInsert>;

/** Shared by the staff edit and the own-profile edit: uniqueness, picture, then one UPDATE. */
async function applyChanges(
  tx: Db,
  target: { id: string; imageFileId: string | null },
  changes: Changes,
  image?: UploadedImage,
) {
  if (changes.username !== undefined) await assertUsernameFree(tx, changes.username, target.id);
  if (image) {
    changes.imageFileId = await storeImage(tx, image);
  }
  if (Object.keys(changes).length > 0) {
    await withUniqueMessages(() => tx.update(users).set(changes).where(eq(users.id, target.id)));
  }
  // The old picture is no longer anyone's: its URL is content-addressed, so it is removed, not reused.
  if (image && target.imageFileId) await deleteFile(tx, target.imageFileId);
}

async function lockUser(tx: Db, id: string) {
  const [row] = await tx
    .select({
      id: users.id,
      role: users.role,
      username: users.username,
      email: users.email,
      imageFileId: users.imageFileId,
      branchId: users.branchId,
    })
    .from(users)
    .where(eq(users.id, id))
    .for('update')
    .limit(1);
  if (!row) throw new AppError('NOT_FOUND', USER_NOT_FOUND);
  return row;
}

export async function updateUser(
  ctx: ServiceContext,
  input: TUpdateUserInput & { image?: UploadedImage },
): Promise<UserDto> {
  const { db, actor, deps } = ctx;
  assertId(input.id, 'User');
  await assertUserInScope(ctx, input.id, USER_NOT_FOUND);
  await db.transaction(async (tx) => {
    const target = await lockUser(tx, input.id);
    assertCanManage(actor, target);
    const before = await loadUser(tx, target.id);
    const changes: Changes = {};
    const newRole = input.role !== target.role ? input.role : undefined;
    if (newRole !== undefined) {
      if (target.id === actor.id) throw new AppError('FORBIDDEN', OWN_ROLE);
      assertCanGrant(actor, newRole);
      changes.role = newRole;
    }
    if (input.username !== undefined) changes.username = input.username;
    if (input.fullName !== undefined) changes.fullName = input.fullName;
    assertNicAgrees(before, input, nicMatchesBirthDay);
    if (input.nic !== undefined && input.nic !== before.nic) await assertNicFree(tx, input.nic, target.id);
    Object.assign(changes, personColumns(input));
    if (input.branchId !== undefined && input.branchId !== target.branchId) {
      // On oneself only the profile fields change: a manager must not move into another branch.
      if (target.id === actor.id) throw new AppError('FORBIDDEN', OWN_BRANCH);
      await assertBranchInScope({ db: tx, actor }, input.branchId);
      if (input.branchId !== null) await assertBranchExists(tx, input.branchId);
      changes.branchId = input.branchId;
    }
    await applyChanges(tx, target, changes, input.image);
    // The role is read at every request, but a demotion must also end what the user had open.
    if (newRole !== undefined) await invalidateUserSessions(tx, target.id, deps.sessionCache);
    await recordUserEdit(tx, ctx, before, await loadUser(tx, target.id), target.id === actor.id);
  });
  invalidateReads(deps);
  return loadUser(db, input.id);
}

export async function updateProfile(
  ctx: ServiceContext,
  input: TUpdateProfileInput & { image?: UploadedImage },
): Promise<UserDto> {
  const { db, actor } = ctx;
  await db.transaction(async (tx) => {
    const target = await lockUser(tx, actor.id);
    const before = await loadUser(tx, target.id);
    const changes: Changes = {};
    if (input.username !== undefined) changes.username = input.username;
    if (input.fullName !== undefined) changes.fullName = input.fullName;
    if (input.phone !== undefined) changes.phone = input.phone;
    if (input.address !== undefined) changes.address = input.address;
    await applyChanges(tx, target, changes, input.image);
    await recordUserEdit(tx, ctx, before, await loadUser(tx, target.id), true);
  });
  invalidateReads(ctx.deps);
  return loadUser(db, actor.id);
}

export async function deleteUser(ctx: ServiceContext, id: string): Promise<{ message: string }> {
  const { db, actor, deps } = ctx;
  if (!isAdmin(actor.role)) throw new AppError('FORBIDDEN', DELETE_ADMINS_ONLY);
  assertId(id, 'User');
  if (id === actor.id) throw new AppError('FORBIDDEN', DELETE_SELF);
  await db.transaction(async (tx) => {
    const target = await lockUser(tx, id);
    assertCanManage(actor, target);
    const before = await loadUser(tx, target.id);
    // Enrolments and bookings stay readable (docs/users.md): the name and email are written on them
    // before the delete sets their user to null.
    await detachUserFromEnrollments(tx, target.id);
    await detachUserFromBookings(tx, target.id);
    await invalidateUserSessions(tx, target.id, deps.sessionCache);
    await tx.delete(users).where(eq(users.id, target.id));
    if (target.imageFileId) await deleteFile(tx, target.imageFileId);
    await recordAudit(tx, ctx, {
      action: 'delete',
      entityType: 'user',
      entityId: target.id,
      summary: `Deleted user ${before.username} (${ROLE_LABELS[before.role]})`,
      changes: fieldChanges(auditView(before), null),
    });
  });
  invalidateReads(deps);
  return { message: 'User deleted successfully.' };
}
