import { useMutation } from '@tanstack/react-query';
import { useRouter } from '@tanstack/react-router';
import { useId, useState, type FormEvent } from 'react';
import { AuthFrame, PasswordField, SubmitButton } from '../components/auth-frame';
import { Button, describedBy, Field, inputClass, Notice } from '../components/ui';
import { usePortalText } from '../i18n';
import { afterSignIn } from '../session';
import { refusalOf, refusalText } from '../refusals';
import { errorCode, trpc } from '../trpc';

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

type Method = 'password' | 'code';

/**
 * Sign-in: with the password, as in the back office, or with a 6-digit code sent by e-mail.
 * The code's request always answers the same, whether or not the address has an account.
 */
export function SignInScreen() {
  const { t } = usePortalText();
  // `?method=code` (the back office's "sign in with a code" link) opens on the code.
  const [method, setMethod] = useState<Method>(() =>
    new URLSearchParams(window.location.search).get('method') === 'code' ? 'code' : 'password',
  );
  const [email, setEmail] = useState('');

  const tab = (m: Method, label: string) => (
    <button
      type="button"
      aria-pressed={method === m}
      onClick={() => setMethod(m)}
      className={`min-h-11 flex-1 rounded-md px-2 text-sm font-medium outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50 ${
        method === m ? 'bg-card text-foreground shadow-xs' : 'text-muted-foreground'
      }`}
    >
      {label}
    </button>
  );

  return (
    <AuthFrame title={t('signIn.title')} intro={t('signIn.intro')}>
      <div role="group" aria-label={t('signIn.methods')} className="mb-5 flex gap-1 rounded-lg bg-muted p-1">
        {tab('password', t('signIn.withPassword'))}
        {tab('code', t('signIn.withCode'))}
      </div>
      {method === 'password' ? (
        <PasswordForm email={email} setEmail={setEmail} />
      ) : (
        <CodeForm email={email} setEmail={setEmail} />
      )}
    </AuthFrame>
  );
}

function useEmailCheck() {
  const { t } = usePortalText();
  return (email: string) =>
    !email.trim() ? t('signIn.emailRequired') : EMAIL_RE.test(email.trim()) ? undefined : t('signIn.emailInvalid');
}

function useGoHome() {
  const router = useRouter();
  return () => void router.navigate({ href: '/portal' });
}

/** The address both ways of signing in ask for; it stays typed when the other way is chosen. */
function EmailField({
  id,
  value,
  onChange,
  error,
}: {
  id: string;
  value: string;
  onChange: (v: string) => void;
  error?: string;
}) {
  const { t } = usePortalText();
  return (
    <Field id={id} label={t('signIn.email')} error={error}>
      <input
        id={id}
        type="email"
        autoComplete="email"
        inputMode="email"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        className={inputClass}
        {...describedBy(id, error)}
      />
    </Field>
  );
}

function PasswordForm({ email, setEmail }: { email: string; setEmail: (v: string) => void }) {
  const { t } = usePortalText();
  const id = useId();
  const checkEmail = useEmailCheck();
  const goHome = useGoHome();
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ email?: string; password?: string; form?: string }>({});
  const login = useMutation(
    trpc.auth.login.mutationOptions({
      onSuccess: (user) => afterSignIn(user.role, goHome),
      onError: (err) => {
        const code = errorCode(err);
        setErrors({
          form:
            code === 'UNAUTHORIZED' || code === 'NOT_FOUND' || code === 'BAD_REQUEST'
              ? t('signIn.invalid')
              : code === 'TOO_MANY_REQUESTS'
                ? t('signIn.tooMany')
                : t('app.failed'),
        });
      },
    }),
  );

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const next = { email: checkEmail(email), password: password ? undefined : t('signIn.passwordRequired') };
    setErrors(next);
    if (next.email || next.password) return;
    login.mutate({ email: email.trim(), password });
  };

  return (
    <form onSubmit={submit} noValidate className="grid gap-4">
      <EmailField id={`${id}-email`} value={email} onChange={setEmail} error={errors.email} />
      <PasswordField
        id={`${id}-password`}
        label={t('signIn.password')}
        autoComplete="current-password"
        value={password}
        onChange={setPassword}
        error={errors.password}
      />
      {errors.form && <Notice tone="error">{errors.form}</Notice>}
      <SubmitButton pending={login.isPending} label={t('signIn.submit')} pendingLabel={t('signIn.submitting')} />
      <a
        href="/forgot-password"
        className="inline-flex min-h-11 items-center justify-center text-sm text-primary underline-offset-4 hover:underline"
      >
        {t('signIn.forgot')}
      </a>
      <p className="text-center text-xs text-muted-foreground">{t('signIn.staffArea')}</p>
    </form>
  );
}

function CodeForm({ email, setEmail }: { email: string; setEmail: (v: string) => void }) {
  const { t } = usePortalText();
  const id = useId();
  const checkEmail = useEmailCheck();
  const goHome = useGoHome();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<{ email?: string; code?: string; form?: string }>({});

  const failure = (err: unknown, wrong: string) => {
    // A refusal the server names (a wrong, expired or locked code) in the page's language.
    if (refusalOf(err)) return refusalText(err);
    const code = errorCode(err);
    if (code === 'TOO_MANY_REQUESTS') return t('signIn.tooMany');
    if (code === 'BAD_REQUEST' || code === 'UNAUTHORIZED' || code === 'NOT_FOUND') return wrong;
    return t('app.failed');
  };

  const request = useMutation(
    trpc.portal.requestCode.mutationOptions({
      onSuccess: (_answer, input) => {
        setSentTo(input.email);
        setCode('');
        setErrors({});
      },
      onError: (err) => setErrors({ form: failure(err, t('signIn.emailInvalid')) }),
    }),
  );
  const verify = useMutation(
    trpc.portal.verifyCode.mutationOptions({
      onSuccess: (user) => afterSignIn(user.role, goHome),
      onError: (err) => setErrors({ form: failure(err, t('signIn.wrongCode')) }),
    }),
  );

  const ask = (e: FormEvent) => {
    e.preventDefault();
    const emailError = checkEmail(email);
    setErrors({ email: emailError });
    if (!emailError) request.mutate({ email: email.trim() });
  };
  const check = (e: FormEvent) => {
    e.preventDefault();
    const value = code.replace(/\s/g, '');
    const codeError = /^\d{6}$/.test(value) ? undefined : t('signIn.codeFormat');
    setErrors({ code: codeError });
    if (!codeError && sentTo) verify.mutate({ email: sentTo, code: value });
  };

  if (!sentTo) {
    return (
      <form onSubmit={ask} noValidate className="grid gap-4">
        <p className="text-sm text-muted-foreground">{t('signIn.codeIntro')}</p>
        <EmailField id={`${id}-email`} value={email} onChange={setEmail} error={errors.email} />
        {errors.form && <Notice tone="error">{errors.form}</Notice>}
        <SubmitButton pending={request.isPending} label={t('signIn.sendCode')} pendingLabel={t('signIn.sendingCode')} />
      </form>
    );
  }

  return (
    <form onSubmit={check} noValidate className="grid gap-4">
      <Notice tone="info">{t('signIn.codeSent', { email: sentTo })}</Notice>
      <Field id={`${id}-code`} label={t('signIn.code')} error={errors.code}>
        <input
          id={`${id}-code`}
          // A one-time code: digits on a phone's keypad, offered from the SMS/e-mail by the browser.
          type="text"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={7}
          value={code}
          onChange={(e) => setCode(e.target.value)}
          className={`${inputClass} tracking-[0.3em]`}
          {...describedBy(`${id}-code`, errors.code)}
        />
      </Field>
      {errors.form && <Notice tone="error">{errors.form}</Notice>}
      <SubmitButton pending={verify.isPending} label={t('signIn.verify')} pendingLabel={t('signIn.verifying')} />
      <div className="flex flex-wrap justify-between gap-2">
        <Button kind="ghost" disabled={request.isPending} onClick={() => request.mutate({ email: sentTo })}>
          {t('signIn.resend')}
        </Button>
        <Button kind="ghost" onClick={() => setSentTo(null)}>
          {t('signIn.otherEmail')}
        </Button>
      </div>
    </form>
  );
}
