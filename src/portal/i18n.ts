import i18next from 'i18next';
import { useSyncExternalStore } from 'react';
import type en from './locales/en.json';

/**
 * The portal's languages and their catalogues (src/portal/locales). i18next runs as a plain
 * library: the catalogues are JSON read at run time, nothing is compiled. Only the language in use
 * is loaded; the others are fetched when the person switches. Screens read texts through
 * `usePortalText` below, a few lines over i18next's language event, rather than react-i18next,
 * whose provider, HOCs and <Trans> the portal does not use and whose kilobytes its first screen
 * cannot spare.
 */
export const LANGUAGES = ['en', 'si', 'ta'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Dates, numbers and money are written by Intl in these locales. */
export const LOCALES: Record<Language, string> = { en: 'en-LK', si: 'si-LK', ta: 'ta-LK' };

/** Each language's own name, shown in the switch whatever the page's language is. */
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', si: 'සිංහල', ta: 'தமிழ்' };

export type Catalogue = typeof en;

const loaders: Record<Language, () => Promise<{ default: Catalogue }>> = {
  en: () => import('./locales/en.json'),
  si: () => import('./locales/si.json'),
  ta: () => import('./locales/ta.json'),
};

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

const STORAGE_KEY = 'portal.language';

/**
 * The language before anyone signs in: the one chosen last on this device, else the browser's
 * if it is Sinhala or Tamil, else English. Once signed in, the profile's language wins.
 */
export function initialLanguage(): Language {
  try {
    const stored = localStorage.getItem(STORAGE_KEY);
    if (isLanguage(stored)) return stored;
  } catch {
    // Storage can be unavailable (private mode); fall through to the browser's languages.
  }
  for (const tag of navigator.languages ?? []) {
    const base = tag.slice(0, 2).toLowerCase();
    if (isLanguage(base)) return base;
  }
  return 'en';
}

async function ensureLoaded(lang: Language) {
  if (i18next.hasResourceBundle(lang, 'translation')) return;
  const { default: catalogue } = await loaders[lang]();
  i18next.addResourceBundle(lang, 'translation', catalogue);
}

export async function initI18n(lang: Language) {
  const { default: catalogue } = await loaders[lang]();
  await i18next.init({
    lng: lang,
    fallbackLng: false,
    resources: { [lang]: { translation: catalogue } },
    // React escapes what it renders; escaping here too would show &amp; in names.
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  document.documentElement.lang = lang;
}

/** Switches the page's language (loading its catalogue first) and remembers it on this device. */
export async function changeLanguage(lang: Language) {
  await ensureLoaded(lang);
  await i18next.changeLanguage(lang);
  document.documentElement.lang = lang;
  try {
    localStorage.setItem(STORAGE_KEY, lang);
  } catch {
    // Not remembered on this device; the profile still holds it once signed in.
  }
}

export function currentLanguage(): Language {
  return isLanguage(i18next.language) ? i18next.language : 'en';
}

/** The organisation's clock: appointments and classes are shown at the clinic's wall time. */
export const TIME_ZONE = 'Asia/Colombo';

const DAY_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Formatters for the current language, made once per language. */
function makeFormat(lang: Language) {
  const locale = LOCALES[lang];
  const day = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' });
  const instantDay = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: TIME_ZONE });
  const dateTime = new Intl.DateTimeFormat(locale, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZone: TIME_ZONE,
  });
  const time = new Intl.DateTimeFormat(locale, { hour: 'numeric', minute: '2-digit', timeZone: TIME_ZONE });
  const weekday = new Intl.DateTimeFormat(locale, { weekday: 'long', timeZone: 'UTC' });
  const clock = new Intl.DateTimeFormat(locale, { hour: 'numeric', minute: '2-digit', timeZone: 'UTC' });
  const number = new Intl.NumberFormat(locale);
  const percent = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 0 });
  const money = new Map<string, Intl.NumberFormat>();
  return {
    locale,
    /** A calendar day 'YYYY-MM-DD' (a due date), the same day wherever it is read. */
    day(iso: string | null | undefined): string {
      const m = iso ? DAY_RE.exec(iso) : null;
      if (!m) return '—';
      return day.format(new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))));
    },
    /** An instant's day in the organisation's zone. */
    instantDay(at: string | Date | null | undefined): string {
      return at ? instantDay.format(new Date(at)) : '—';
    },
    dateTime(at: string | Date | null | undefined): string {
      return at ? dateTime.format(new Date(at)) : '—';
    },
    time(at: string | Date | null | undefined): string {
      return at ? time.format(new Date(at)) : '—';
    },
    /** A wall-clock time 'HH:MM' (a timetable's), written the language's way. */
    clock(hhmm: string): string {
      const m = /^(\d{1,2}):(\d{2})/.exec(hhmm);
      return m ? clock.format(new Date(Date.UTC(1970, 0, 1, Number(m[1]), Number(m[2])))) : hhmm;
    },
    /** Weekday 0 (Sunday) … 6 by name. */
    weekday(n: number): string {
      // 4 Jan 1970 was a Sunday.
      return weekday.format(new Date(Date.UTC(1970, 0, 4 + n)));
    },
    number: (n: number) => number.format(n),
    /** A rate 0–100 as a percentage. */
    percent: (rate: number) => percent.format(rate / 100),
    money(amount: number | null | undefined, currency: string | null | undefined): string {
      if (amount === null || amount === undefined || !Number.isFinite(amount)) return '—';
      const code = (currency ?? 'LKR').toUpperCase();
      let f = money.get(code);
      if (!f) {
        try {
          f = new Intl.NumberFormat(locale, { style: 'currency', currency: code });
        } catch {
          // A code Intl does not know is written as a plain number with the code.
          const plain = new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
          f = { format: (n: number) => `${code} ${plain.format(n)}` } as Intl.NumberFormat;
        }
        money.set(code, f);
      }
      return f.format(amount);
    },
  };
}

export type Format = ReturnType<typeof makeFormat>;
const formats = new Map<Language, Format>();

export function formatFor(lang: Language): Format {
  let f = formats.get(lang);
  if (!f) {
    f = makeFormat(lang);
    formats.set(lang, f);
  }
  return f;
}

function subscribe(onChange: () => void) {
  i18next.on('languageChanged', onChange);
  return () => i18next.off('languageChanged', onChange);
}

/** `t` and the formatters of the page's language; re-renders when the language changes. */
export function usePortalText() {
  const lang = useSyncExternalStore(subscribe, currentLanguage);
  // i18next's `t` reads the current language itself; the hook only makes React re-render.
  return { t: i18next.t, lang, f: formatFor(lang) };
}
