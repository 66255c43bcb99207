import { index, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, id } from './common';

/**
 * Counted events for limits that are neither sign-ins nor codes (receipt e-mails per payment and
 * per sender), in the database so every server process sees the same counts. `bucket` names the
 * limit, `key` what it counts (a payment's id, a user's id).
 */
export const rateEvents = pgTable(
  'rate_events',
  {
    id: id(),
    bucket: text('bucket').notNull(),
    key: text('key').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('rate_events_bucket_key_idx').on(t.bucket, t.key, t.createdAt)],
);

/**
 * Secrets the servers must share and nobody configured (the device-cookie signing key when
 * DEVICE_COOKIE_SECRET is unset): written once by the first server to start, read by the others.
 */
export const appSecrets = pgTable('app_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: createdAt(),
});
