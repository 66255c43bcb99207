import type { Db } from '../../db/client';
import { messageTemplates } from '../../db/schema';
import {
  MESSAGE_CHANNELS,
  MESSAGE_EVENTS,
  MESSAGE_LANGUAGES,
  MESSAGE_PLACEHOLDERS,
  type MessageChannel,
  type MessageEvent,
  type MessageLanguage,
  type MessagePlaceholder,
  type TTemplateItem,
} from '@shared/schemas/messages';
import { defaultTemplates } from './default-templates';

export type TemplateVars = Partial<Record<MessagePlaceholder, string>>;

export interface Template {
  subject: string | null;
  body: string;
  /** The language the text is in: the one asked for, or English when it has no text in it. */
  language: MessageLanguage;
}

const PLACEHOLDER_RE = /\{([A-Za-z]+)\}/g;
const isPlaceholder = (k: string): k is MessagePlaceholder => (MESSAGE_PLACEHOLDERS as readonly string[]).includes(k);

/** Fills `{name}`-style placeholders; an unknown one stays as written, a known one without a value is empty. */
export function renderText(text: string, vars: TemplateVars): string {
  return text.replace(PLACEHOLDER_RE, (whole, key: string) => (isPlaceholder(key) ? (vars[key] ?? '') : whole));
}

const defaultOf = (event: string, channel: string, language: string) =>
  defaultTemplates.find((t) => t.event === event && t.channel === channel && t.language === language);

/** The admins' saved templates, read once for a whole planning batch. */
export type SavedTemplates = ReadonlyArray<typeof messageTemplates.$inferSelect>;

export const loadSavedTemplates = (db: Db): Promise<SavedTemplates> => db.select().from(messageTemplates);

/**
 * The text for an event, channel and language: the admin's saved one, else the shipped one; with
 * neither in that language, the same two in English.
 */
export function templateFor(
  saved: SavedTemplates,
  event: MessageEvent,
  channel: MessageChannel,
  language: MessageLanguage,
): Template {
  const tries: MessageLanguage[] = language === 'en' ? ['en'] : [language, 'en'];
  for (const lang of tries) {
    const own = saved.find((t) => t.event === event && t.channel === channel && t.language === lang);
    if (own) return { subject: own.subject, body: own.body, language: lang };
    const shipped = defaultOf(event, channel, lang);
    if (shipped) return { subject: shipped.subject ?? null, body: shipped.body, language: lang };
  }
  return { subject: event, body: '{organisation}', language: 'en' };
}

/** Every template an admin can edit, saved or shipped, in the contract's order; none missing in English. */
export async function listTemplates(db: Db): Promise<TTemplateItem[]> {
  const saved = await db.select().from(messageTemplates);
  const out: TTemplateItem[] = [];
  for (const event of MESSAGE_EVENTS)
    for (const channel of MESSAGE_CHANNELS)
      for (const language of MESSAGE_LANGUAGES) {
        const s = saved.find((t) => t.event === event && t.channel === channel && t.language === language);
        const d = defaultOf(event, channel, language);
        const subject = s ? s.subject : (d?.subject ?? null);
        const body = s?.body ?? d?.body;
        if (body === undefined) continue;
        out.push({ event, channel, language, ...(channel === 'email' && subject ? { subject } : {}), body });
      }
  return out;
}
