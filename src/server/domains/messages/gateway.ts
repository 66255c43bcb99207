import type { Config } from '../../config';

/**
 * The generic HTTP SMS gateway (docs/messages.md#sms-gateway): one request per message, built from
 * configuration. A 2xx answer is a success; a 4xx is a refusal (a bad number, a rejected sender)
 * that trying again will not change; a 5xx, a network error or a timeout may pass, so it is retried.
 */
export class SendRefused extends Error {}
export class SendFailed extends Error {}

type GatewayConfig = Pick<
  Config,
  | 'SMS_GATEWAY_URL'
  | 'SMS_GATEWAY_METHOD'
  | 'SMS_GATEWAY_HEADERS'
  | 'SMS_GATEWAY_BODY'
  | 'SMS_GATEWAY_MESSAGE_ID_PATH'
  | 'SMS_GATEWAY_TIMEOUT_MS'
>;

export interface SmsToSend {
  to: string;
  text: string;
  /** Our unique key for the message, for a gateway that takes a client reference. */
  id: string;
}

/** Fills {to}, {text}, {id}, each escaped for where it lands (JSON string, form or URL). */
function fill(template: string, sms: SmsToSend, escape: (s: string) => string): string {
  return template.replace(/\{(to|text|id)\}/g, (_, k: 'to' | 'text' | 'id') => escape(sms[k]));
}

const jsonEscape = (s: string) => JSON.stringify(s).slice(1, -1);

/** Reads `a.b.0.c` out of a parsed JSON answer; null when any step is missing. */
export function readPath(value: unknown, path: string): string | null {
  let at: unknown = value;
  for (const step of path.split('.')) {
    if (at === null || typeof at !== 'object') return null;
    at = (at as Record<string, unknown>)[step];
  }
  return typeof at === 'string' || typeof at === 'number' ? String(at) : null;
}

export async function sendViaGateway(config: GatewayConfig, sms: SmsToSend): Promise<{ providerId: string | null }> {
  const urlTemplate = config.SMS_GATEWAY_URL;
  if (!urlTemplate) throw new Error('SMS_GATEWAY_URL is not set.');
  const headers = JSON.parse(config.SMS_GATEWAY_HEADERS) as Record<string, string>;
  const contentType = Object.entries(headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? '';
  const escapeBody = contentType.includes('json')
    ? jsonEscape
    : contentType.includes('form')
      ? encodeURIComponent
      : (s: string) => s;
  const url = fill(urlTemplate, sms, encodeURIComponent);
  const method = config.SMS_GATEWAY_METHOD;
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      headers,
      body: method === 'GET' ? undefined : fill(config.SMS_GATEWAY_BODY, sms, escapeBody),
      signal: AbortSignal.timeout(config.SMS_GATEWAY_TIMEOUT_MS),
    });
  } catch (err) {
    const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
    throw new SendFailed(
      timedOut
        ? `The SMS gateway did not answer within ${config.SMS_GATEWAY_TIMEOUT_MS} ms.`
        : `The SMS gateway could not be reached: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  const answer = await res.text().catch(() => '');
  const excerpt = answer.slice(0, 200);
  if (res.status >= 400 && res.status < 500)
    throw new SendRefused(`The SMS gateway refused the message (${res.status}): ${excerpt}`);
  if (!res.ok) throw new SendFailed(`The SMS gateway failed (${res.status}): ${excerpt}`);
  let providerId: string | null = null;
  if (config.SMS_GATEWAY_MESSAGE_ID_PATH) {
    try {
      providerId = readPath(JSON.parse(answer), config.SMS_GATEWAY_MESSAGE_ID_PATH);
    } catch {
      providerId = null;
    }
  }
  return { providerId };
}
