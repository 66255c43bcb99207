/** A rendered email: plain text always (docs/jobs.md), HTML optional. */
export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Extra headers (List-Unsubscribe on messages, docs/messages.md#opting-out). */
  headers?: Record<string, string>;
}
