import { eq, sql } from 'drizzle-orm';
import { dummyPasswordHash, verifyPassword } from '../../auth/passwords';
import { createSession, invalidateSession } from '../../auth/sessions';
import { clearFailedLogins, recordFailedLogin, reserveLoginAttempt } from '../../auth/throttle';
import { users } from '../../db/schema';
import { AppError } from '../../errors';
import type { ServiceContext, SystemContext } from '../common';
import { findUserDto } from '../users/users.dto';
import type { TLoginInput } from '@shared/schemas/auth';

export const INVALID_CREDENTIALS = 'Invalid email or password.';

/** Who is asking, as far as limits are concerned: the client's address. */
export interface ClientInfo {
  ip: string;
}

/**
 * Signs in any role (the client shows non-staff a "no access" page); a new token every time.
 * Each check is reserved first, so failures per account and client, and per client, stay within
 * their limits even for attempts sent together (docs/security.md#rate-limits-and-lock-outs).
 */
export async function login({ db, deps }: SystemContext, input: TLoginInput, client: ClientInfo) {
  const reservation = await reserveLoginAttempt(db, input.email, client.ip);
  const [user] = await db
    .select({ id: users.id, passwordHash: users.passwordHash })
    .from(users)
    .where(eq(sql`lower(${users.email})`, input.email))
    .limit(1);
  const ok = await verifyPassword(user?.passwordHash ?? (await dummyPasswordHash()), input.password);
  if (!user || !ok) {
    await recordFailedLogin(db, reservation);
    throw new AppError('UNAUTHORIZED', INVALID_CREDENTIALS);
  }
  await clearFailedLogins(db, input.email, client.ip);
  const session = await createSession(db, user.id, deps.sessionPolicy);
  const dto = await findUserDto(db, user.id);
  if (!dto) throw new AppError('UNAUTHORIZED', INVALID_CREDENTIALS);
  return { user: dto, token: session.token, expiresAt: session.expiresAt };
}

export async function logout({ db, actor, deps }: ServiceContext) {
  await invalidateSession(db, actor.sessionId, deps.sessionCache);
}

export async function me({ db, actor }: ServiceContext) {
  return findUserDto(db, actor.id);
}
