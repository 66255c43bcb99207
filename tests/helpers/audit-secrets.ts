import { sessionIdFromToken } from '../../src/server/auth/sessions';
import type { Db } from '../../src/server/db/client';
import { auditLog, emailOutbox, passwordResets, sessions, users } from '../../src/server/db/schema';
import { DEMO_PASSWORD } from '../../src/server/seed/demo-users';
import { TEST_PASSWORD } from './factories';

/**
 * docs/audit.md: no entry ever holds a password, a password hash, a session token or its id, an
 * OTP or its hash. Every test server checks its own database when it closes, so a whole test run
 * scans every entry it wrote: the known passwords, the tokens the run handed out and received,
 * and the hashes, session ids and emailed codes still in the database.
 */
export async function findSecretsInAudit(db: Db, tokens: Iterable<string>): Promise<string[]> {
  const entries = await db
    .select({ summary: auditLog.summary, changes: auditLog.changes, userAgent: auditLog.userAgent, row: auditLog })
    .from(auditLog);
  if (entries.length === 0) return [];
  const stored = [
    ...(await db.select({ s: users.passwordHash }).from(users)),
    ...(await db.select({ s: sessions.id }).from(sessions)),
    ...(await db.select({ s: passwordResets.otpHash }).from(passwordResets)),
  ].flatMap((r) => (r.s ? [r.s] : []));
  const known = [...tokens];
  const secrets = [TEST_PASSWORD, DEMO_PASSWORD, ...known, ...known.map(sessionIdFromToken), ...stored];
  // The codes of the one-time-password e-mails (a receipt e-mail's six digits are its receipt number).
  const codes = (await db.select({ text: emailOutbox.text, key: emailOutbox.idempotencyKey }).from(emailOutbox))
    .filter((m) => m.key.startsWith('otp:'))
    .flatMap((m) => /\b(\d{6})\b/.exec(m.text)?.slice(1) ?? []);
  const found: string[] = [];
  for (const e of entries) {
    const whole = JSON.stringify(e.row).toLowerCase();
    for (const s of secrets) if (whole.includes(s.toLowerCase())) found.push(`"${e.summary}" holds a secret`);
    // Codes are only looked for in what people wrote, not in ids, where six digits occur by chance.
    const readable = JSON.stringify([e.summary, e.changes, e.userAgent]);
    for (const c of codes) if (readable.includes(c)) found.push(`"${e.summary}" holds an emailed code`);
  }
  return found;
}
