/**
 * SMS length (docs/messages.md#sms-length): a text made only of the GSM 03.38 alphabet goes as
 * GSM-7, 160 characters in one message or 153 per part of a longer one; a character of the
 * extension table (such as € or [) takes two of those places. Any other character (Sinhala,
 * Tamil, most emoji) makes the whole text UCS-2: 70 in one message, 67 per part, counted in
 * UTF-16 code units as the phone network counts them.
 */
const GSM_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞ\u001bÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?' +
  '¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM_EXTENSION = '\f^{}\\[~]|€';

const basic = new Set(GSM_BASIC);
const extension = new Set(GSM_EXTENSION);

export type SmsEncoding = 'GSM-7' | 'UCS-2';

export interface SmsLength {
  /** Places the text takes in its encoding (GSM-7 septets or UTF-16 code units). */
  characters: number;
  segments: number;
  encoding: SmsEncoding;
}

export function smsSegments(text: string): SmsLength {
  let septets = 0;
  let gsm = true;
  for (const ch of text) {
    if (basic.has(ch)) septets += 1;
    else if (extension.has(ch)) septets += 2;
    else {
      gsm = false;
      break;
    }
  }
  if (gsm) {
    const segments = septets === 0 ? 0 : septets <= 160 ? 1 : Math.ceil(septets / 153);
    return { characters: septets, segments, encoding: 'GSM-7' };
  }
  const units = text.length;
  const segments = units === 0 ? 0 : units <= 70 ? 1 : Math.ceil(units / 67);
  return { characters: units, segments, encoding: 'UCS-2' };
}
