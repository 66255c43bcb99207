import type { Config } from '../../config';
import type { EmailMessage } from '../types';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * Every email looks the same: the product name on top, the paragraphs, a closing line.
 * The text part is the message; the HTML part is the same words, escaped, for clients that prefer it.
 */
export function brandedEmail(
  config: Pick<Config, 'APP_NAME'>,
  to: string,
  subject: string,
  paragraphs: string[],
): EmailMessage {
  const footer = `This message was sent by ${config.APP_NAME}. If you did not expect it, you can ignore it.`;
  const text = [config.APP_NAME, '', ...paragraphs.flatMap((p) => [p, '']), '--', footer].join('\n');
  const html = [
    '<div style="font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;max-width:560px;margin:0 auto;color:#111827">',
    `<h2 style="margin:0 0 16px;font-size:18px">${escapeHtml(config.APP_NAME)}</h2>`,
    ...paragraphs.map((p) => `<p style="margin:0 0 12px;line-height:1.5;white-space:pre-line">${escapeHtml(p)}</p>`),
    `<hr style="border:none;border-top:1px solid #e5e7eb;margin:24px 0 12px"><p style="font-size:12px;color:#6b7280">${escapeHtml(footer)}</p>`,
    '</div>',
  ].join('');
  return { to, subject: `${subject} - ${config.APP_NAME}`, text, html };
}
