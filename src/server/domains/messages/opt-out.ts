import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { AppDeps } from '../../deps';
import type { Db } from '../../db/client';
import { appSecrets } from '../../db/schema';
import type { MessageChannel } from '@shared/schemas/messages';

/**
 * The one-click opt-out link (docs/messages.md#opting-out): `<userId>.<channel>.<HMAC>` signed with
 * MESSAGE_LINK_SECRET, or a random secret the first server stores in the database, so any
 * server checks any other's links. Changing a user id or channel breaks the signature.
 */
const SECRET_NAME = 'message-link';
const keys = new WeakMap<Db, Promise<Buffer>>();

/**
 * The signing key, read once per process. `db` is the caller's transaction when there is one: the
 * embedded database has a single connection, so a read on `deps.db` while that transaction is open
 * would wait for it forever. A secret this transaction inserted itself is not kept (it is gone if
 * the transaction rolls back); one that was already stored is, so later messages read nothing.
 */
async function linkKey(deps: AppDeps, db: Db = deps.db): Promise<Buffer> {
  const configured = deps.config.MESSAGE_LINK_SECRET;
  if (configured) return Buffer.from(configured, 'utf8');
  const cached = keys.get(deps.db);
  if (cached) return cached;
  const { value, inserted } = await storedSecret(db);
  const key = Buffer.from(value, 'base64url');
  if (!inserted || db === deps.db) keys.set(deps.db, Promise.resolve(key));
  return key;
}

async function storedSecret(db: Db): Promise<{ value: string; inserted: boolean }> {
  const [made] = await db
    .insert(appSecrets)
    .values({ name: SECRET_NAME, value: randomBytes(32).toString('base64url') })
    .onConflictDoNothing()
    .returning({ value: appSecrets.value });
  if (made) return { value: made.value, inserted: true };
  const [row] = await db.select({ value: appSecrets.value }).from(appSecrets).where(eq(appSecrets.name, SECRET_NAME));
  if (!row) throw new Error('the message-link secret could not be stored');
  return { value: row.value, inserted: false };
}

const sign = (key: Buffer, payload: string) =>
  createHmac('sha256', key).update(`opt-out:${payload}`).digest('base64url');

export async function optOutToken(
  deps: AppDeps,
  userId: string,
  channel: MessageChannel,
  db: Db = deps.db,
): Promise<string> {
  const payload = `${userId}.${channel}`;
  return `${payload}.${sign(await linkKey(deps, db), payload)}`;
}

/** The person and channel of a link this deployment signed; null for anything else. */
export async function readOptOutToken(
  deps: AppDeps,
  token: string,
): Promise<{ userId: string; channel: MessageChannel } | null> {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const [userId, channel, signature] = parts as [string, string, string];
  if (channel !== 'email' && channel !== 'sms') return null;
  if (!/^[0-9a-f-]{36}$/i.test(userId)) return null;
  const expected = Buffer.from(sign(await linkKey(deps), `${userId}.${channel}`));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return { userId, channel };
}

/** The public origin links are written with: APP_ORIGIN, else the local server. */
export function publicOrigin(deps: AppDeps): string {
  return deps.config.APP_ORIGIN ?? `http://localhost:${deps.config.PORT}`;
}

export async function optOutUrl(
  deps: AppDeps,
  userId: string,
  channel: MessageChannel,
  db: Db = deps.db,
): Promise<string> {
  const token = await optOutToken(deps, userId, channel, db);
  return `${publicOrigin(deps)}/api/messages/opt-out?token=${encodeURIComponent(token)}`;
}
