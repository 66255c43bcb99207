/*
 * The personal details staff record on a user (docs/users.md#personal-details): which columns an
 * input sets, and the two rules the input schema cannot see alone — a NIC belongs to one user,
 * and a NIC and birth day kept on a user agree even when an edit sends only one of them.
 */
import { and, eq, ne } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';
import { AppError } from '../../errors';
import { NIC_DOB_MISMATCH, NIC_TAKEN, type EmergencyContact, type Gender } from '@shared/schemas/person';

export interface PersonInput {
  phone?: string | null;
  address?: string | null;
  nic?: string | null;
  dateOfBirth?: string | null;
  gender?: Gender | null;
  emergencyContact?: EmergencyContact | null;
  guardianPhone?: string | null;
}

/** The columns an input changes: a field left out is kept, a null clears it. */
export function personColumns(input: PersonInput): Partial<typeof users.$inferInsert> {
  const out: Partial<typeof users.$inferInsert> = {};
  if (input.phone !== undefined) out.phone = input.phone;
  if (input.address !== undefined) out.address = input.address;
  if (input.nic !== undefined) out.nic = input.nic;
  if (input.dateOfBirth !== undefined) out.dateOfBirth = input.dateOfBirth;
  if (input.gender !== undefined) out.gender = input.gender;
  if (input.guardianPhone !== undefined) out.guardianPhone = input.guardianPhone;
  if (input.emergencyContact !== undefined) {
    const c = input.emergencyContact;
    out.emergencyContactName = c?.name ?? null;
    out.emergencyContactRelation = c?.relation ?? null;
    out.emergencyContactPhone = c?.phone ?? null;
  }
  return out;
}

/** 409 when another user has this NIC; the unique index decides a race with the same message. */
export async function assertNicFree(db: Db, nic: string | null | undefined, exceptId?: string) {
  if (!nic) return;
  const [clash] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.nic, nic), exceptId ? ne(users.id, exceptId) : undefined))
    .limit(1);
  if (clash) throw new AppError('CONFLICT', NIC_TAKEN);
}

/** After an edit the user's NIC and birth day must still agree (the schema checked a pair sent together). */
export function assertNicAgrees(
  kept: { nic: string | null; dateOfBirth: string | null },
  input: PersonInput,
  matches: (nic: string, day: string) => boolean,
) {
  const nic = input.nic !== undefined ? input.nic : kept.nic;
  const day = input.dateOfBirth !== undefined ? input.dateOfBirth : kept.dateOfBirth;
  if (nic && day && !matches(nic, day)) throw new AppError('BAD_REQUEST', NIC_DOB_MISMATCH);
}
