import en from './en.json';
import si from './si.json';
import ta from './ta.json';

/**
 * The texts of the e-mails a student or patient reads about their account (reset code, sign-in
 * code, invitation, the closing line), in the three languages a person can choose, with the same
 * `{{placeholder}}` syntax as the portal's catalogues and the same catalogue test. A plain lookup
 * rather than i18next: the portal's i18next types describe the portal's catalogue, and these texts
 * need only a key, a fallback to English and the placeholders filled in.
 */
export type EmailLanguage = 'en' | 'si' | 'ta';

export const emailCatalogues = { en, si, ta };

type Catalogue = typeof en;
type Leaves<T, P extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${P}${K}` : Leaves<T[K], `${P}${K}.`>;
}[keyof T & string];
export type EmailTextKey = Leaves<Catalogue>;

function lookup(catalogue: unknown, key: string): string | undefined {
  const value = key.split('.').reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], catalogue);
  return typeof value === 'string' ? value : undefined;
}

/** The text of `key` in `language` (English when missing), its placeholders filled in. */
export const emailText =
  (language: EmailLanguage) =>
  (key: EmailTextKey, values: Record<string, string | number> = {}): string =>
    (lookup(emailCatalogues[language], key) ?? lookup(en, key) ?? key).replace(
      /\{\{\s*(\w+)\s*\}\}/g,
      (_, name: string) => String(values[name] ?? ''),
    );
