/**
 * Refusals the portal names by a stable code beside the English `message` (docs/portal.md#refusals):
 * the REST body's `refusal` and a tRPC error's `data.refusal` are `{ code, params }`, and the
 * portal shows its own catalogue's `refusal.<code>` text in the person's language, filling in
 * `params`. A code the portal does not know is shown in the server's words.
 */
export const REFUSAL_CODES = [
  'cancel_too_late',
  'not_cancellable',
  'not_movable',
  'self_booking_off',
  'too_soon',
  'too_far',
  'no_branch',
  'booking_cancelled',
  'treatment_gone',
  'no_sessions_left',
  'slot_taken',
  'not_found',
  'code_invalid',
  'code_expired',
  'code_locked',
  'invitation_invalid',
  'invitation_expired',
  'invalid_input',
  'too_many_requests',
] as const;

export type RefusalCode = (typeof REFUSAL_CODES)[number];

/** Values a refusal's text fills in (a phone, a number of hours, a field's name). */
export type RefusalParams = Record<string, string | number>;

export interface Refusal {
  code: RefusalCode;
  params?: RefusalParams;
}

export function isRefusalCode(value: unknown): value is RefusalCode {
  return typeof value === 'string' && (REFUSAL_CODES as readonly string[]).includes(value);
}
