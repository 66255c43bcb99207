/**
 * Signing in to the portal without a password (docs/portal.md#sign-in-by-code) and invitations
 * (docs/portal.md#invitations). The code has the reset code's numbers (6 digits, 10 minutes, 5
 * tries a code, 5 codes per e-mail address an hour, 20 wrong codes a day), counted apart from it;
 * the answers are the same for unknown e-mails. Both end in a session exactly as a password
 * sign-in does.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import { hashPassword } from '../../auth/passwords';
import { createSession, invalidateUserSessions } from '../../auth/sessions';
import { countEvents, type EventLimit } from '../../auth/rate-events';
import { countOtpEvent, OTP_RESEND_INTERVAL_MS, refundOtpEvent } from '../../auth/throttle';
import type { Db } from '../../db/client';
import { firstRow } from '../../db/rows';
import { portalCodes, portalInvitations, users } from '../../db/schema';
import type { AppDeps, RequestMeta } from '../../deps';
import { AppError, isUniqueViolation, refusal } from '../../errors';
import { isStaff } from '../../../shared/roles';
import { PORTAL_CODE_SENT, type TInvitationAcceptInput, type TPortalCodeVerifyInput } from '@shared/schemas/portal';
import { recordAccountEvent } from '../audit/audit.service';
import { assertUserInScope } from '../branch-scope';
import type { ServiceContext, SystemContext } from '../context';
import { assertId } from '../ids';
import { invalidateReads } from '../read-cache';
import { findUserDto } from '../users/users.dto';
import { hashOtp } from '../users/password-reset.service';

export const PORTAL_CODE_TTL_MS = 10 * 60_000;
export const PORTAL_CODE_MAX_ATTEMPTS = 5;
export const INVITATION_TTL_MS = 72 * 60 * 60_000;

export const INVALID_CODE = 'Invalid code. Please try again.';
export const CODE_EXPIRED = 'This code has expired. Please request a new one.';
export const CODE_LOCKED = 'Too many wrong attempts. Please request a new code.';
export const INVITATION_INVALID = 'This invitation link is not valid. Please ask the clinic for a new one.';
export const INVITATION_EXPIRED = 'This invitation link has expired. Please ask the clinic for a new one.';
const invalidCode = () => refusal('BAD_REQUEST', INVALID_CODE, { code: 'code_invalid' });
const invalidInvitation = () => refusal('BAD_REQUEST', INVITATION_INVALID, { code: 'invitation_invalid' });
export const INVITE_STAFF = 'Invitations are for students, customers and users; staff sign in with their password.';

/** Invitations one person may be sent a day, whoever sends them. */
const INVITES_PER_PERSON: EventLimit = {
  bucket: 'portal_invite',
  max: 5,
  windowMs: 24 * 60 * 60_000,
  message: 'This person has been sent 5 invitations today. Please try again tomorrow.',
};

export function generateInvitationToken(): string {
  return randomBytes(32).toString('base64url');
}
export function hashInvitationToken(token: string): string {
  return createHash('sha256').update(`invitation:${token}`).digest('hex');
}

function sameHash(a: string, b: string) {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

// ------------------------------------------------------------------ sign-in by code

/**
 * POST /api/portal/code. Counted per address before the answer, for known and unknown addresses
 * alike; the account-dependent work runs after the answer is decided and is not awaited, so
 * neither the words nor the time tell whether the address has an account (as the reset does).
 * Staff accounts get no code: they sign in with their password.
 */
export async function requestPortalCode(
  { db, deps, request }: SystemContext,
  input: { email: string },
): Promise<{ message: string }> {
  await countOtpEvent(db, input.email, 'portal_code_requested');
  void issuePortalCode(deps, input.email, request).catch((err: unknown) =>
    deps.log.error({ err }, 'portal sign-in code request failed'),
  );
  return { message: PORTAL_CODE_SENT };
}

async function issuePortalCode(deps: AppDeps, email: string, request?: RequestMeta): Promise<void> {
  const { db } = deps;
  const [user] = await db
    .select({ id: users.id, username: users.username, role: users.role })
    .from(users)
    .where(eq(sql`lower(${users.email})`, email))
    .limit(1);
  if (!user || isStaff(user.role)) return;
  await db
    .transaction(async (tx) => {
      const [recent] = await tx
        .select({ id: portalCodes.id })
        .from(portalCodes)
        .where(
          and(
            eq(portalCodes.userId, user.id),
            gt(portalCodes.createdAt, new Date(Date.now() - OTP_RESEND_INTERVAL_MS)),
          ),
        )
        .for('update')
        .limit(1);
      if (recent) return;
      await tx.delete(portalCodes).where(eq(portalCodes.userId, user.id));
      const row = firstRow(
        await tx
          .insert(portalCodes)
          .values({ userId: user.id, expiresAt: new Date(Date.now() + PORTAL_CODE_TTL_MS) })
          .returning({ id: portalCodes.id }),
      );
      await deps.jobs.enqueue(
        'send-email',
        { key: `portal_code:${row.id}`, template: 'portal_code', userId: user.id, ref: row.id },
        { jobId: `portal_code:${row.id}`, tx },
      );
      await recordAccountEvent(
        tx,
        { actor: null, request },
        'sign_in_code_request',
        user.id,
        `Sign-in code requested for ${user.username}`,
      );
    })
    .catch((err: unknown) => {
      if (isUniqueViolation(err)) return;
      throw err;
    });
}

/**
 * Checks the code as the reset's check does: a try claimed before comparing (at most five per
 * code, even for guesses sent together), a wrong-code event reserved before comparing and given
 * back for a right code, an address with no code to compare counted as wrong all the same.
 */
async function verifyPortalCode(db: Db, email: string, code: string): Promise<{ userId: string; codeId: string }> {
  const [row] = await db
    .select({ c: portalCodes })
    .from(portalCodes)
    .innerJoin(users, eq(users.id, portalCodes.userId))
    .where(eq(sql`lower(${users.email})`, email))
    .limit(1);
  const c = row?.c;
  if (!c || !c.codeHash) {
    await countOtpEvent(db, email, 'portal_wrong_code');
    throw invalidCode();
  }
  if (c.expiresAt.getTime() <= Date.now()) throw refusal('BAD_REQUEST', CODE_EXPIRED, { code: 'code_expired' });
  const [claimed] = await db
    .update(portalCodes)
    .set({ attempts: sql`${portalCodes.attempts} + 1` })
    .where(
      and(
        eq(portalCodes.id, c.id),
        lt(portalCodes.attempts, PORTAL_CODE_MAX_ATTEMPTS),
        gt(portalCodes.expiresAt, new Date()),
      ),
    )
    .returning({ attempts: portalCodes.attempts, codeHash: portalCodes.codeHash });
  if (!claimed) {
    const [now] = await db.select({ attempts: portalCodes.attempts }).from(portalCodes).where(eq(portalCodes.id, c.id));
    const locked = (now?.attempts ?? c.attempts) >= PORTAL_CODE_MAX_ATTEMPTS;
    if (!locked) throw invalidCode();
    const retryAfterSeconds = Math.max(1, Math.ceil((c.expiresAt.getTime() - Date.now()) / 1000));
    throw refusal('TOO_MANY_REQUESTS', CODE_LOCKED, { code: 'code_locked' }, { retryAfterSeconds });
  }
  let guess: string;
  try {
    guess = await countOtpEvent(db, email, 'portal_wrong_code');
  } catch (err) {
    await db
      .update(portalCodes)
      .set({ attempts: sql`greatest(${portalCodes.attempts} - 1, 0)` })
      .where(eq(portalCodes.id, c.id));
    throw err;
  }
  if (!claimed.codeHash || !sameHash(claimed.codeHash, hashOtp(c.id, code))) {
    throw claimed.attempts >= PORTAL_CODE_MAX_ATTEMPTS
      ? refusal('BAD_REQUEST', CODE_LOCKED, { code: 'code_locked' })
      : invalidCode();
  }
  await refundOtpEvent(db, guess);
  return { userId: c.userId, codeId: c.id };
}

/** A signed-in answer as POST /api/users/auth gives it. */
async function signedIn(ctx: SystemContext, tx: Db, user: { id: string; username: string; role: string }) {
  return createSession(tx, user.id, ctx.deps.sessionPolicy);
}

/** POST /api/portal/code/verify: the right code, once, signs the person in. */
export async function verifyPortalCodeAndSignIn(ctx: SystemContext, input: TPortalCodeVerifyInput) {
  const { db, deps, request } = ctx;
  const { userId, codeId } = await verifyPortalCode(db, input.email, input.code);
  const session = await db.transaction(async (tx) => {
    // Deleting the exact code makes it single-use even against a parallel check.
    const gone = await tx.delete(portalCodes).where(eq(portalCodes.id, codeId)).returning({ id: portalCodes.id });
    if (!gone.length) throw invalidCode();
    const [user] = await tx
      .select({ id: users.id, username: users.username, role: users.role })
      .from(users)
      .where(eq(users.id, userId));
    if (!user) throw invalidCode();
    const created = await signedIn(ctx, tx, user);
    await recordAccountEvent(
      tx,
      { actor: user, request },
      'sign_in',
      user.id,
      `${user.username} signed in with an e-mailed code`,
    );
    return created;
  });
  invalidateReads(deps);
  const dto = await findUserDto(db, userId);
  if (!dto) throw invalidCode();
  return { user: dto, token: session.token, expiresAt: session.expiresAt };
}

// ------------------------------------------------------------------ invitations

/**
 * POST /api/users/{id}/invite (staff): e-mails the person a link valid 72 hours that lets them
 * set a password. A new invitation replaces the old one; at most 5 a day per person.
 */
export async function invitePerson(
  ctx: ServiceContext,
  userId: string,
): Promise<{ message: string; expiresAt: string }> {
  assertId(userId, 'User');
  await assertUserInScope(ctx, userId, 'User not found.');
  const [user] = await ctx.db
    .select({ id: users.id, username: users.username, email: users.email, role: users.role })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  if (!user) throw new AppError('NOT_FOUND', 'User not found.');
  if (isStaff(user.role)) throw new AppError('CONFLICT', INVITE_STAFF);
  await countEvents(ctx.db, [{ limit: INVITES_PER_PERSON, key: user.id }]);
  const expiresAt = new Date(Date.now() + INVITATION_TTL_MS);
  await ctx.db.transaction(async (tx) => {
    await tx.delete(portalInvitations).where(eq(portalInvitations.userId, user.id));
    const row = firstRow(
      await tx
        .insert(portalInvitations)
        .values({ userId: user.id, expiresAt, invitedById: ctx.actor.id })
        .returning({ id: portalInvitations.id }),
    );
    await ctx.deps.jobs.enqueue(
      'send-email',
      { key: `invitation:${row.id}`, template: 'invitation', userId: user.id, ref: row.id },
      { jobId: `invitation:${row.id}`, tx },
    );
    await recordAccountEvent(tx, ctx, 'invite', user.id, `Sent ${user.username} an invitation to the portal`);
  });
  invalidateReads(ctx.deps);
  void ctx.deps.jobs.flush?.();
  return {
    message: `An invitation is on its way to ${user.email}. The link is valid for 72 hours.`,
    expiresAt: expiresAt.toISOString(),
  };
}

/**
 * POST /api/portal/invitation/accept: a live invitation's token sets the password (ending every
 * other session, as a password change does), is consumed, and signs the person in.
 */
export async function acceptInvitation(ctx: SystemContext, input: TInvitationAcceptInput) {
  const { db, deps, request } = ctx;
  const hash = hashInvitationToken(input.token);
  const [inv] = await db.select().from(portalInvitations).where(eq(portalInvitations.tokenHash, hash)).limit(1);
  if (!inv || !inv.tokenHash || !sameHash(inv.tokenHash, hash)) throw invalidInvitation();
  if (inv.expiresAt.getTime() <= Date.now())
    throw refusal('BAD_REQUEST', INVITATION_EXPIRED, { code: 'invitation_expired' });
  const passwordHash = await hashPassword(input.password);
  const session = await db.transaction(async (tx) => {
    const gone = await tx
      .delete(portalInvitations)
      .where(and(eq(portalInvitations.id, inv.id), gt(portalInvitations.expiresAt, new Date())))
      .returning({ id: portalInvitations.id });
    if (!gone.length) throw invalidInvitation();
    const [user] = await tx
      .update(users)
      .set({ passwordHash, updatedAt: new Date() })
      .where(eq(users.id, inv.userId))
      .returning({ id: users.id, username: users.username, role: users.role });
    if (!user) throw invalidInvitation();
    await invalidateUserSessions(tx, user.id, deps.sessionCache);
    const created = await signedIn(ctx, tx, user);
    await recordAccountEvent(
      tx,
      { actor: user, request },
      'invitation_accept',
      user.id,
      `${user.username} accepted the portal invitation and set a password`,
    );
    return created;
  });
  invalidateReads(deps);
  const dto = await findUserDto(db, inv.userId);
  if (!dto) throw invalidInvitation();
  return { user: dto, token: session.token, expiresAt: session.expiresAt };
}
