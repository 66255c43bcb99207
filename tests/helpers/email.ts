import { desc, eq } from 'drizzle-orm';
import type { Db } from '../../src/server/db/client';
import { emailOutbox } from '../../src/server/db/schema';
import { defaultMessageSettings, storeMessageSettings } from '../../src/server/domains/messages/settings';

/** Emails are sent by a job in the background: waits for the newest outbox email to `to` (other than `notId`). */
export async function waitForEmail(db: Db, to: string, notId?: string) {
  for (let i = 0; i < 200; i++) {
    const [row] = await db
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.to, to))
      .orderBy(desc(emailOutbox.createdAt))
      .limit(1);
    if (row && row.id !== notId) return row;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`no email to ${to} in the outbox`);
}

/** The 6-digit code in a password-reset email. */
export function codeIn(mail: { text: string }): string {
  const code = /\b(\d{6})\b/.exec(mail.text)?.[1];
  if (!code) throw new Error('no 6-digit code in the email');
  return code;
}

/**
 * Quiet hours off, so a message due now is sent now whatever the hour the tests run at (every
 * message but a cancellation waits for the end of quiet hours); tests of quiet hours set their own.
 */
export function withoutQuietHours(db: Db): Promise<void> {
  return storeMessageSettings(db, { ...defaultMessageSettings(), quietHours: null });
}
