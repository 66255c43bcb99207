/** A rendered email: plain text always (docs/jobs.md), HTML optional. */
export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}
