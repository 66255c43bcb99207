import { eq, sql } from 'drizzle-orm';
import { dummyPasswordHash, verifyPassword } from '../../auth/passwords';
import { createSession, invalidateSession } from '../../auth/sessions';
import { deviceCookieKey, issueDeviceCookie, readDeviceCookie } from '../../auth/device-cookie';
import { clearFailedLogins, deviceClientKey, recordFailedLogin, reserveLoginAttempt } from '../../auth/throttle';
import { users } from '../../db/schema';
import { AppError } from '../../errors';
import { recordAccountEvent } from '../audit/audit.service';
import type { ServiceContext, SystemContext } from '../context';
import { findUserDto } from '../users/users.dto';
import type { TLoginInput } from '@shared/schemas/auth';
import { invalidateReads } from '../read-cache';

export const INVALID_CREDENTIALS = 'Invalid email or password.';

/** Who is asking, as far as limits are concerned: the client's address, and its device cookie. */
export interface ClientInfo {
  ip: string;
  deviceCookie?: string;
}

/**
 * The sign-in form does not insist on an email: text that is not one (a password typed in the
 * wrong box) is never written to the audit trail.
 */
function typedAccount(email: string): string {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) ? email : 'an unknown account';
}

/**
 * Signs in any role (the client shows non-staff a "no access" page); a new token every time.
 * Each check is reserved first, so failures per account and client, and per client, stay within
 * their limits even for attempts sent together (docs/security.md#rate-limits-and-lock-outs).
 *
 * The client is the address, unless the request carries a valid device cookie for this account:
 * then it is that device, so failures from strangers at the same address (30 lock the address)
 * do not hold a colleague who has signed in from this browser before, and the device's own
 * failures count per account and device (5 hold that cookie for that account). A success answers
 * a fresh device cookie for the caller to set.
 */
export async function login(ctx: SystemContext, input: TLoginInput, client: ClientInfo) {
  const { db, deps, request } = ctx;
  const [user] = await db
    .select({ id: users.id, username: users.username, role: users.role, passwordHash: users.passwordHash })
    .from(users)
    .where(eq(sql`lower(${users.email})`, input.email))
    .limit(1);
  const key = await deviceCookieKey(db, deps.config.DEVICE_COOKIE_SECRET);
  const device = readDeviceCookie(key, client.deviceCookie);
  const clientKey = user && device?.userId === user.id ? deviceClientKey(device.nonce) : client.ip;
  let reservation: string;
  try {
    reservation = await reserveLoginAttempt(db, input.email, clientKey);
  } catch (err) {
    // docs/audit.md: a refused attempt names the account tried (when there is one), never the password.
    if (err instanceof AppError && err.code === 'TOO_MANY_REQUESTS') {
      await recordAccountEvent(
        db,
        { actor: null, request },
        'sign_in_throttled',
        user?.id ?? null,
        `Refused sign-in as ${typedAccount(input.email)}: too many failed attempts`,
      );
      invalidateReads(deps);
    }
    throw err;
  }
  const ok = await verifyPassword(user?.passwordHash ?? (await dummyPasswordHash()), input.password);
  if (!user || !ok) {
    await recordFailedLogin(db, reservation);
    await recordAccountEvent(
      db,
      { actor: null, request },
      'sign_in_failed',
      user?.id ?? null,
      user
        ? `Failed sign-in as ${input.email}: wrong password`
        : `Failed sign-in as ${typedAccount(input.email)}: no such account`,
    );
    invalidateReads(deps);
    throw new AppError('UNAUTHORIZED', INVALID_CREDENTIALS);
  }
  await clearFailedLogins(db, input.email, clientKey);
  const session = await db.transaction(async (tx) => {
    const created = await createSession(tx, user.id, deps.sessionPolicy);
    await recordAccountEvent(tx, { actor: user, request }, 'sign_in', user.id, `${user.username} signed in`);
    return created;
  });
  invalidateReads(deps);
  const dto = await findUserDto(db, user.id);
  if (!dto) throw new AppError('UNAUTHORIZED', INVALID_CREDENTIALS);
  return {
    user: dto,
    token: session.token,
    expiresAt: session.expiresAt,
    deviceCookie: issueDeviceCookie(key, user.id),
  };
}

export async function logout(ctx: ServiceContext) {
  const { actor, request, deps } = ctx;
  await ctx.db.transaction(async (tx) => {
    await invalidateSession(tx, actor.sessionId, deps.sessionCache);
    await recordAccountEvent(tx, { actor, request }, 'sign_out', actor.id, `${actor.username} signed out`);
  });
  invalidateReads(deps);
}

export async function me({ db, actor }: ServiceContext) {
  return findUserDto(db, actor.id);
}
