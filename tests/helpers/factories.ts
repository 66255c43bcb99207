import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { hashPassword } from '../../src/server/auth/passwords';
import type { Db } from '../../src/server/db/client';
import { branches, users } from '../../src/server/db/schema';
import type { Role } from '../../src/shared/roles';
import type { TreatmentValues } from '../../src/shared/schemas/treatments';
import type { TTreatment } from '../../src/shared/schemas/treatments.output';
import type { TestApp } from './app';

export const TEST_PASSWORD = 'correct-horse-9';
let cachedHash: Promise<string> | undefined;

export interface MadeUser {
  id: string;
  email: string;
  username: string;
  fullName: string;
  password: string;
  role: Role;
  branchId: string | null;
}

export async function makeBranch(db: Db, o: Partial<{ name: string; location: string }> = {}) {
  const suffix = randomBytes(3).toString('hex');
  const [b] = await db
    .insert(branches)
    .values({ name: o.name ?? `Branch ${suffix}`, location: o.location ?? `Street ${suffix}` })
    .returning();
  return b!;
}

/** A user with TEST_PASSWORD (hashed once per file: argon2 is deliberately slow). */
export async function makeUser(
  db: Db,
  o: Partial<{
    role: Role;
    email: string;
    username: string;
    fullName: string;
    branchId: string | null;
    password: string;
  }> = {},
): Promise<MadeUser> {
  const suffix = randomBytes(4).toString('hex');
  const password = o.password ?? TEST_PASSWORD;
  const passwordHash = o.password ? await hashPassword(o.password) : await (cachedHash ??= hashPassword(TEST_PASSWORD));
  const role = o.role ?? 'user';
  const [u] = await db
    .insert(users)
    .values({
      username: o.username ?? `${role}_${suffix}`,
      fullName: o.fullName ?? `Test ${role} ${suffix}`,
      email: (o.email ?? `${role}.${suffix}@example.com`).toLowerCase(),
      passwordHash,
      role,
      branchId: o.branchId ?? null,
    })
    .returning();
  return {
    id: u!.id,
    email: u!.email,
    username: u!.username,
    fullName: u!.fullName,
    password,
    role,
    branchId: u!.branchId,
  };
}

/**
 * A course created through the API (POST /api/course) as the token's user: a three-month Nursing
 * course named `prefix` and a random tag, with the given fees and installments. The test fails
 * unless the course is created; answers its id.
 */
export async function postCourse(
  t: Pick<TestApp, 'api'>,
  token: string,
  prefix: string,
  fees: { totalFee: number; admissionFee: number; installments: number },
): Promise<string> {
  const res = await t.api<{ _id: string }>('POST', '/api/course', {
    token,
    body: {
      courseName: `${prefix} ${Math.random().toString(36).slice(2, 8)}`,
      duration: '3 months',
      totalFee: fees.totalFee,
      installments: fees.installments,
      category: 'Nursing',
      admissionFee: fees.admissionFee,
    },
  });
  expect(res.status).toBe(201);
  return res.body._id;
}

/**
 * A treatment created through the API (POST /api/treatments) as the token's user, with the given
 * values. The test fails unless the treatment is created; answers it as the API did.
 */
export async function postTreatment(
  t: Pick<TestApp, 'api'>,
  token: string,
  values: TreatmentValues,
): Promise<TTreatment> {
  const res = await t.api<TTreatment>('POST', '/api/treatments', { token, body: values });
  expect(res.status).toBe(201);
  return res.body;
}
