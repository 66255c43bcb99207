import i18next from 'i18next';
import { TRPCClientError } from '@trpc/client';
import { isRefusalCode, type Refusal } from '@shared/refusals';
import { isClientError } from './trpc';

/**
 * A server refusal in the page's language (docs/portal.md#refusals): the server names each portal
 * refusal by a stable code (`data.refusal`), and its text here is the catalogue's
 * `refusal.<code>`, filled in with the refusal's values. A refusal without a code the portal
 * knows is shown in the server's words; a failure that is no refusal (the network, a fault) is the
 * catalogue's "something went wrong".
 */
export function refusalOf(err: unknown): Refusal | undefined {
  if (!(err instanceof TRPCClientError)) return undefined;
  const r = (err.data as { refusal?: unknown } | undefined)?.refusal;
  if (typeof r !== 'object' || r === null) return undefined;
  const { code, params } = r as { code?: unknown; params?: unknown };
  if (!isRefusalCode(code)) return undefined;
  return { code, params: typeof params === 'object' && params !== null ? (params as Refusal['params']) : {} };
}

// Keys built at run time are checked by i18next.exists; the catalogue test holds one per code.
const text = (key: string, values?: Record<string, unknown>): string =>
  (i18next.t as unknown as (k: string, o?: Record<string, unknown>) => string)(key, values);

/** The catalogue key for a refusal, or undefined when the catalogue has none for it. */
function keyOf(r: Refusal): string | undefined {
  const p = r.params ?? {};
  let key = `refusal.${r.code}`;
  if (r.code === 'invalid_input') key = `refusal.invalid_input.${String(p.field ?? '')}`;
  else if ((r.code === 'cancel_too_late' || r.code === 'self_booking_off') && !String(p.phone ?? '').trim())
    key = `refusal.${r.code}_no_phone`;
  return i18next.exists(key) ? key : undefined;
}

export function refusalText(err: unknown): string {
  const r = refusalOf(err);
  const key = r && keyOf(r);
  if (r && key) {
    const values: Record<string, unknown> = { ...r.params };
    const status = r.params?.status;
    if (typeof status === 'string' && i18next.exists(`appointment.status.${status}`))
      values.status = text(`appointment.status.${status}`);
    return text(key, values);
  }
  if (isClientError(err) && err instanceof Error && err.message) return err.message;
  return text('app.failed');
}
