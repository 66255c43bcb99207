import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';
import { contactLine, type Organisation } from '../../domains/settings/organisation.service';
import type { EmailMessage } from '../types';
import { emailText, type EmailLanguage } from '../locales';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * Every email looks the same: the organisation's name on top (loadOrganisation: the product's
 * name until one is set), the paragraphs, a closing line with how to reach the organisation.
 * The text part is the message; the HTML part is the same words, escaped, for clients that prefer it.
 * The closing line is in the recipient's language (English unless the e-mail says otherwise).
 */
export function brandedEmail(
  org: Organisation,
  to: string,
  subject: string,
  paragraphs: string[],
  language: EmailLanguage = 'en',
): EmailMessage {
  const contact = contactLine(org);
  const footer = emailText(language)('footer', { organisation: org.name, contact: contact ? ` (${contact})` : '' });
  const text = [org.name, '', ...paragraphs.flatMap((p) => [p, '']), '--', footer].join('\n');
  const html = [
    '<div style="font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;max-width:560px;margin:0 auto;color:#111827">',
    `<h2 style="margin:0 0 16px;font-size:18px">${escapeHtml(org.name)}</h2>`,
    ...paragraphs.map((p) => `<p style="margin:0 0 12px;line-height:1.5;white-space:pre-line">${escapeHtml(p)}</p>`),
    `<hr style="border:none;border-top:1px solid #e5e7eb;margin:24px 0 12px"><p style="font-size:12px;color:#6b7280">${escapeHtml(footer)}</p>`,
    '</div>',
  ].join('');
  return { to, subject: `${subject} - ${org.name}`, text, html };
}

/**
 * Whom a code or link e-mail goes to: the account's address, name and preferred language, or null
 * once it is gone.
 */
export async function recipientOf(
  db: Db,
  userId: string,
): Promise<{ email: string; fullName: string; language: EmailLanguage } | null> {
  const [user] = await db
    .select({ email: users.email, fullName: users.fullName, language: users.language })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return user ?? null;
}
