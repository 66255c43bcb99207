import { GraduationCapIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { usePortalText } from '../i18n';
import { LanguageSwitch } from './language-switch';
import { Button, describedBy, Field, inputClass, Spinner } from './ui';

/** The frame of the screens before sign-in: the language switch on top, one card in the middle. */
export function AuthFrame({ title, intro, children }: { title: string; intro?: string; children: ReactNode }) {
  const { t } = usePortalText();
  return (
    <div className="min-h-svh bg-gradient-to-br from-slate-50 via-white to-blue-50">
      <header className="flex justify-end p-3">
        <LanguageSwitch signedIn={false} />
      </header>
      <main className="mx-auto w-full max-w-sm px-4 pb-10">
        <div className="mb-5 flex flex-col items-center gap-2 text-center">
          <span className="flex size-11 items-center justify-center rounded-xl bg-primary text-primary-foreground">
            <GraduationCapIcon aria-hidden="true" className="size-6" />
          </span>
          <p className="text-sm font-medium text-muted-foreground">{t('app.title')}</p>
        </div>
        <div className="rounded-lg border bg-card p-5 shadow-xs">
          <h1 className="text-xl font-semibold">{title}</h1>
          {intro && <p className="mt-1 text-sm text-muted-foreground">{intro}</p>}
          <div className="mt-5">{children}</div>
        </div>
      </main>
    </div>
  );
}

/** A password box with its label, and the reason under it when the form refuses what was typed. */
export function PasswordField({
  id,
  label,
  autoComplete,
  value,
  onChange,
  error,
}: {
  id: string;
  label: string;
  autoComplete: 'current-password' | 'new-password';
  value: string;
  onChange: (v: string) => void;
  error?: string;
}) {
  return (
    <Field id={id} label={label} error={error}>
      <input
        id={id}
        type="password"
        autoComplete={autoComplete}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        className={inputClass}
        {...describedBy(id, error)}
      />
    </Field>
  );
}

/** A form's full-width submit, which says it is at work (and cannot be pressed twice) while pending. */
export function SubmitButton({
  pending,
  label,
  pendingLabel,
}: {
  pending: boolean;
  label: string;
  pendingLabel: string;
}) {
  return (
    <Button type="submit" disabled={pending} className="w-full">
      {pending && <Spinner />}
      {pending ? pendingLabel : label}
    </Button>
  );
}
