import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import type { Db } from '../db/client';
import { appSecrets } from '../db/schema';

/**
 * Device cookies (OWASP's answer to lock-outs by address): a browser that has signed in to an
 * account before carries an HMAC-signed cookie naming that account and a random nonce. Its
 * sign-ins to that account are not held by the failures counted against the address (a whole
 * office shares one); its own failures count per account and device instead
 * (docs/security.md#rate-limits-and-lock-outs).
 */
export const DEVICE_COOKIE = 'device';
/** Long-lived: the cookie says "this browser has signed in here before", not who is signed in. */
export const DEVICE_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;
const SECRET_NAME = 'device-cookie';

const keys = new WeakMap<Db, Promise<Buffer>>();

/**
 * The signing key: DEVICE_COOKIE_SECRET when set, else a random secret the first server to start
 * writes to the database (`app_secrets`), so every server checks the others' cookies.
 */
export function deviceCookieKey(db: Db, configured: string | undefined): Promise<Buffer> {
  if (configured) return Promise.resolve(Buffer.from(configured, 'utf8'));
  let key = keys.get(db);
  if (!key) {
    key = storedSecret(db).then((s) => Buffer.from(s, 'base64url'));
    // A failed read is tried again by the next sign-in, not remembered.
    key.catch(() => keys.delete(db));
    keys.set(db, key);
  }
  return key;
}

async function storedSecret(db: Db): Promise<string> {
  await db
    .insert(appSecrets)
    .values({ name: SECRET_NAME, value: randomBytes(32).toString('base64url') })
    .onConflictDoNothing();
  const [row] = await db.select({ value: appSecrets.value }).from(appSecrets).where(eq(appSecrets.name, SECRET_NAME));
  if (!row) throw new Error('the device-cookie secret could not be stored');
  return row.value;
}

const sign = (key: Buffer, payload: string) => createHmac('sha256', key).update(payload).digest('base64url');

/** A new cookie value for the account: `<userId>.<nonce>.<signature>`. */
export function issueDeviceCookie(key: Buffer, userId: string): string {
  const payload = `${userId}.${randomBytes(16).toString('base64url')}`;
  return `${payload}.${sign(key, payload)}`;
}

/** The account and nonce of a cookie this deployment signed; null for anything else. */
export function readDeviceCookie(key: Buffer, value: string | undefined): { userId: string; nonce: string } | null {
  if (!value || value.length > 200) return null;
  const parts = value.split('.');
  if (parts.length !== 3) return null;
  const [userId, nonce, signature] = parts as [string, string, string];
  const expected = Buffer.from(sign(key, `${userId}.${nonce}`));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return { userId, nonce };
}

export function setDeviceCookie(reply: FastifyReply, value: string) {
  reply.setCookie(DEVICE_COOKIE, value, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: 'auto',
    maxAge: DEVICE_COOKIE_MAX_AGE_SECONDS,
  });
}
