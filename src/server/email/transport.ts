import { Resend } from 'resend';
import type { Config } from '../config';
import type { EmailMessage } from './types';

/**
 * Where an e-mail queued now will go: through Resend when a key is configured, else only into the
 * development outbox (send-email.ts), which a queued e-mail's answer must say rather than
 * promise a delivery that will not happen.
 */
export function emailDelivery(config: Pick<Config, 'RESEND_API_KEY'>): 'email' | 'outbox' {
  return config.RESEND_API_KEY ? 'email' : 'outbox';
}

/** The words for an e-mail that only reached the outbox: `what` names it and its addressee. */
export const queuedToOutbox = (what: string) =>
  `${what} was queued to the outbox: no e-mail provider is configured, so it is not sent.`;

/**
 * Sends through Resend. `idempotencyKey` makes Resend answer a repeated request with the first
 * send's id instead of sending again: a job that died after sending and before recording it
 * cannot send twice.
 */
export async function sendViaResend(
  config: Config,
  message: EmailMessage,
  idempotencyKey: string,
): Promise<{ providerId: string }> {
  const resend = new Resend(
    config.RESEND_API_KEY,
    config.RESEND_BASE_URL ? { baseUrl: config.RESEND_BASE_URL } : undefined,
  );
  const { data, error } = await resend.emails.send(
    {
      from: config.EMAIL_FROM,
      to: message.to,
      subject: message.subject,
      text: message.text,
      ...(message.html ? { html: message.html } : {}),
      ...(message.headers ? { headers: message.headers } : {}),
    },
    { idempotencyKey },
  );
  if (error || !data) throw new Error(`Resend refused the email: ${error?.message ?? 'no answer'}`);
  return { providerId: data.id };
}
