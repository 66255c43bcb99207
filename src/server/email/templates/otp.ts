import type { AppDeps } from '../../deps';
import type { EmailMessage } from '../types';

/**
 * Owned by the users issue: generates the OTP for password-reset request `ref`, stores its hash,
 * and renders the email. Returns null when the request is gone, superseded or expired.
 */
export async function buildOtpEmail(_deps: AppDeps, _payload: { userId: string; ref?: string }): Promise<EmailMessage | null> {
  throw new Error('OTP email is not implemented yet');
}
