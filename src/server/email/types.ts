/** A rendered email: plain text always (RULES.md), HTML optional. */
export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}
