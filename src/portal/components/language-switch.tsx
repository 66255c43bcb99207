import { useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { changeLanguage, isLanguage, LANGUAGE_NAMES, LANGUAGES, usePortalText, type Language } from '../i18n';
import { queryClient, trpc } from '../trpc';

/**
 * The language switch on every page. Signed in, the choice is saved to the person's profile (their
 * messages follow it too); before sign-in it is remembered on this device only.
 */
export function LanguageSwitch({ signedIn }: { signedIn: boolean }) {
  const { t, lang } = usePortalText();
  const id = useId();
  const [failed, setFailed] = useState(false);
  const save = useMutation(trpc.portal.saveProfile.mutationOptions());

  const choose = async (next: Language) => {
    setFailed(false);
    await changeLanguage(next);
    if (!signedIn) return;
    try {
      await save.mutateAsync({ language: next });
      await queryClient.invalidateQueries({ queryKey: trpc.portal.pathKey() });
    } catch {
      setFailed(true);
    }
  };

  return (
    <div className="flex flex-col items-end">
      <label htmlFor={id} className="sr-only">
        {t('app.language')}
      </label>
      <select
        id={id}
        value={lang}
        onChange={(e) => {
          if (isLanguage(e.target.value)) void choose(e.target.value);
        }}
        className="min-h-11 rounded-md border border-input bg-card px-2 text-sm outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
      >
        {LANGUAGES.map((l) => (
          <option key={l} value={l} lang={l}>
            {LANGUAGE_NAMES[l]}
          </option>
        ))}
      </select>
      {failed && (
        <p role="alert" className="mt-1 max-w-56 text-right text-xs text-destructive">
          {t('app.languageSaveFailed')}
        </p>
      )}
    </div>
  );
}
