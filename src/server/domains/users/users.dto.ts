import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { AppError } from '../../errors';
import { branches, users } from '../../db/schema';
import type { TUser } from '@shared/schemas/users.output';

export const USER_NOT_FOUND = 'User not found.';

/** The columns every user answer is built from; the password hash is never selected. */
export const userColumns = {
  id: users.id,
  username: users.username,
  fullName: users.fullName,
  email: users.email,
  role: users.role,
  phone: users.phone,
  address: users.address,
  nic: users.nic,
  dateOfBirth: users.dateOfBirth,
  gender: users.gender,
  emergencyContactName: users.emergencyContactName,
  emergencyContactRelation: users.emergencyContactRelation,
  emergencyContactPhone: users.emergencyContactPhone,
  guardianPhone: users.guardianPhone,
  imageFileId: users.imageFileId,
  createdAt: users.createdAt,
  updatedAt: users.updatedAt,
  branchId: branches.id,
  branchName: branches.name,
  branchLocation: branches.location,
};

export type UserRow = Awaited<ReturnType<typeof selectUsers>>[number];

export function imageUrl(fileId: string | null): string | null {
  return fileId ? `/api/files/${fileId}` : null;
}

/** docs/product.md#records-and-their-fields User: `_id`, populated `branch`, `image` as a URL. */
export function toUserDto(u: UserRow): TUser {
  return {
    _id: u.id,
    username: u.username,
    fullName: u.fullName,
    email: u.email,
    role: u.role,
    branch: u.branchId ? { _id: u.branchId, name: u.branchName ?? '', location: u.branchLocation ?? '' } : null,
    phone: u.phone,
    address: u.address,
    nic: u.nic,
    dateOfBirth: u.dateOfBirth,
    gender: u.gender,
    emergencyContact:
      u.emergencyContactName && u.emergencyContactPhone
        ? { name: u.emergencyContactName, relation: u.emergencyContactRelation, phone: u.emergencyContactPhone }
        : null,
    // Only when recorded: an answer without one is the same as before the field existed.
    ...(u.guardianPhone ? { guardianPhone: u.guardianPhone } : {}),
    image: imageUrl(u.imageFileId),
    createdAt: u.createdAt.toISOString(),
    updatedAt: u.updatedAt.toISOString(),
  };
}

export type UserDto = TUser;

export function selectUsers(db: Db) {
  return db.select(userColumns).from(users).leftJoin(branches, eq(branches.id, users.branchId));
}

export async function findUserDto(db: Db, id: string): Promise<UserDto | null> {
  const [row] = await selectUsers(db).where(eq(users.id, id)).limit(1);
  return row ? toUserDto(row) : null;
}

/** The user's answer; a user that is gone (deleted meanwhile) is not found. */
export async function loadUser(db: Db, id: string): Promise<UserDto> {
  const dto = await findUserDto(db, id);
  if (!dto) throw new AppError('NOT_FOUND', USER_NOT_FOUND);
  return dto;
}
