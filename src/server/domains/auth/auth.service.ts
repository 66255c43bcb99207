import { eq, sql } from 'drizzle-orm';
import { dummyPasswordHash, verifyPassword } from '../../auth/passwords';
import { createSession, invalidateSession, type Actor } from '../../auth/sessions';
import { clearFailedLogins, isLoginThrottled, recordFailedLogin } from '../../auth/throttle';
import { users } from '../../db/schema';
import type { AppDeps } from '../../deps';
import { AppError } from '../../errors';
import { findUserDto } from '../users/users.dto';
import type { TLoginInput } from '@shared/schemas/auth';

export const INVALID_CREDENTIALS = 'Invalid email or password.';
export const THROTTLED = 'Too many failed sign-in attempts. Please try again in 15 minutes.';

/**
 * Signs in any role (the client shows non-staff a "no access" page); a new token every time.
 * Failures for one email are counted; the sixth attempt within 15 minutes is refused with 429.
 */
export async function login(deps: AppDeps, input: TLoginInput) {
  const { db } = deps;
  if (await isLoginThrottled(db, input.email)) throw new AppError('TOO_MANY_REQUESTS', THROTTLED);
  const [user] = await db
    .select({ id: users.id, passwordHash: users.passwordHash })
    .from(users)
    .where(eq(sql`lower(${users.email})`, input.email))
    .limit(1);
  const ok = await verifyPassword(user?.passwordHash ?? (await dummyPasswordHash()), input.password);
  if (!user || !ok) {
    await recordFailedLogin(db, input.email);
    throw new AppError('UNAUTHORIZED', INVALID_CREDENTIALS);
  }
  await clearFailedLogins(db, input.email);
  const session = await createSession(db, user.id, deps.sessionPolicy);
  const dto = await findUserDto(db, user.id);
  if (!dto) throw new AppError('UNAUTHORIZED', INVALID_CREDENTIALS);
  return { user: dto, token: session.token, expiresAt: session.expiresAt };
}

export async function logout(deps: AppDeps, actor: Actor) {
  await invalidateSession(deps.db, actor.sessionId, deps.sessionCache);
}

export async function me(deps: AppDeps, actor: Actor) {
  return findUserDto(deps.db, actor.id);
}
