import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { ScreenTitle } from '../components/layout';
import { Loaded } from '../components/states';
import { Button, Card, describedBy, Detail, Field, inputClass, Notice, Spinner } from '../components/ui';
import { changeLanguage, isLanguage, LANGUAGE_NAMES, LANGUAGES, usePortalText, type Language } from '../i18n';
import { refusalText } from '../refusals';
import { trpc, type RouterOutputs } from '../trpc';

type Profile = RouterOutputs['portal']['profile'];

/**
 * Profile: the contact details a person may change (phone, address, language, opt-outs) and, read
 * only, the ones the front desk keeps (name, e-mail, NIC, branch).
 */
export function ProfileScreen() {
  const { t } = usePortalText();
  const profile = useQuery(trpc.portal.profile.queryOptions());
  return (
    <>
      <ScreenTitle>{t('profile.title')}</ScreenTitle>
      <Loaded query={profile}>
        {(data) => (
          <div className="grid gap-4">
            <Card aria-labelledby="details-title">
              <h2 id="details-title" className="text-base font-semibold">
                {t('profile.details')}
              </h2>
              <p className="mb-3 text-sm text-muted-foreground">{t('profile.detailsNote')}</p>
              <dl className="grid gap-2">
                <Detail label={t('profile.name')}>{data.fullName}</Detail>
                <Detail label={t('profile.email')}>{data.email}</Detail>
                <Detail label={t('profile.nic')}>{data.nic || t('profile.none')}</Detail>
                <Detail label={t('profile.branch')}>{data.branch?.name ?? t('profile.none')}</Detail>
              </dl>
            </Card>
            <ContactForm profile={data} />
          </div>
        )}
      </Loaded>
    </>
  );
}

function ContactForm({ profile }: { profile: Profile }) {
  const { t } = usePortalText();
  const id = useId();
  const queryClient = useQueryClient();
  const [phone, setPhone] = useState(profile.phone ?? '');
  const [address, setAddress] = useState(profile.address ?? '');
  const [language, setLanguage] = useState<Language>(profile.language);
  const [optOutEmail, setOptOutEmail] = useState(profile.optOut.email);
  const [optOutSms, setOptOutSms] = useState(profile.optOut.sms);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);

  // The language switch in the header saves the profile too: follow it here (React's way of
  // adjusting state to a changed prop, during render rather than in an effect).
  const [seenLanguage, setSeenLanguage] = useState(profile.language);
  if (seenLanguage !== profile.language) {
    setSeenLanguage(profile.language);
    setLanguage(profile.language);
  }

  const save = useMutation(
    trpc.portal.saveProfile.mutationOptions({
      onSuccess: async (next) => {
        setSaved(true);
        queryClient.setQueryData(trpc.portal.profile.queryKey(), next);
        await queryClient.invalidateQueries({ queryKey: trpc.portal.me.queryKey() });
        if (isLanguage(next.language)) await changeLanguage(next.language);
      },
      // A refusal names the field (a phone number the server cannot read), in the page's language.
      onError: (err) => setError(refusalText(err)),
    }),
  );

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSaved(false);
    setError(null);
    save.mutate({
      phone: phone.trim(),
      address: address.trim() || null,
      language,
      optOut: { email: optOutEmail, sms: optOutSms },
    });
  };

  return (
    <Card aria-labelledby="contact-title">
      <h2 id="contact-title" className="mb-3 text-base font-semibold">
        {t('profile.contact')}
      </h2>
      <form onSubmit={submit} noValidate className="grid gap-4">
        <Field id={`${id}-phone`} label={t('profile.phone')} hint={t('profile.phoneHint')}>
          <input
            id={`${id}-phone`}
            type="tel"
            autoComplete="tel"
            value={phone}
            onChange={(e) => setPhone(e.target.value)}
            className={inputClass}
            {...describedBy(`${id}-phone`, undefined, t('profile.phoneHint'))}
          />
        </Field>
        <Field id={`${id}-address`} label={t('profile.address')}>
          <textarea
            id={`${id}-address`}
            autoComplete="street-address"
            rows={3}
            maxLength={300}
            value={address}
            onChange={(e) => setAddress(e.target.value)}
            className={inputClass}
          />
        </Field>
        <Field id={`${id}-language`} label={t('profile.language')}>
          <select
            id={`${id}-language`}
            value={language}
            onChange={(e) => {
              if (isLanguage(e.target.value)) setLanguage(e.target.value);
            }}
            className={inputClass}
          >
            {LANGUAGES.map((l) => (
              <option key={l} value={l} lang={l}>
                {LANGUAGE_NAMES[l]}
              </option>
            ))}
          </select>
        </Field>
        <fieldset className="grid gap-2">
          <legend className="mb-1 text-sm font-medium">{t('profile.messages')}</legend>
          <OptOutBox label={t('profile.optOutEmail')} checked={optOutEmail} onChange={setOptOutEmail} />
          <OptOutBox label={t('profile.optOutSms')} checked={optOutSms} onChange={setOptOutSms} />
        </fieldset>
        {error && <Notice tone="error">{error}</Notice>}
        {saved && <Notice tone="success">{t('profile.saved')}</Notice>}
        <Button type="submit" disabled={save.isPending} className="w-full sm:w-auto sm:justify-self-start">
          {save.isPending && <Spinner />}
          {save.isPending ? t('profile.saving') : t('profile.save')}
        </Button>
      </form>
      <div className="mt-5 border-t pt-4">
        <h3 className="text-sm font-semibold">{t('profile.password')}</h3>
        <a
          href="/forgot-password"
          className="inline-flex min-h-11 items-center text-sm text-primary underline-offset-4 hover:underline"
        >
          {t('profile.changePassword')}
        </a>
      </div>
    </Card>
  );
}

/** One of the messages a person may stop: a checkbox whose whole line (44 px tall) is its label. */
function OptOutBox({ label, checked, onChange }: { label: string; checked: boolean; onChange: (on: boolean) => void }) {
  return (
    <label className="flex min-h-11 items-center gap-3 text-sm">
      <input
        type="checkbox"
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
        className="size-5 shrink-0 accent-primary"
      />
      {label}
    </label>
  );
}
