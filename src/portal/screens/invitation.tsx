import { useMutation } from '@tanstack/react-query';
import { useRouter } from '@tanstack/react-router';
import { useId, useState, type FormEvent } from 'react';
import { AuthFrame, PasswordField, SubmitButton } from '../components/auth-frame';
import { Notice } from '../components/ui';
import { usePortalText } from '../i18n';
import { afterSignIn } from '../session';
import { refusalOf, refusalText } from '../refusals';
import { errorCode, trpc } from '../trpc';

/** The server's password rule, checked here first so the person reads it in their language. */
const MIN_PASSWORD = 8;
const MAX_PASSWORD = 256;

/** The page an invitation e-mail links to: set a password, and be signed in. */
export function InvitationScreen() {
  const { t } = usePortalText();
  const id = useId();
  const router = useRouter();
  const [token] = useState(() => new URLSearchParams(window.location.search).get('token')?.trim() || undefined);
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<{ password?: string; confirm?: string; form?: string }>({});

  const accept = useMutation(
    trpc.portal.acceptInvitation.mutationOptions({
      onSuccess: (user) => afterSignIn(user.role, () => void router.navigate({ href: '/portal' })),
      onError: (err) => {
        const code = errorCode(err);
        setErrors({
          // A refusal the server names (a link expired or not valid) in the page's language.
          form: refusalOf(err)
            ? refusalText(err)
            : code === 'TOO_MANY_REQUESTS'
              ? t('signIn.tooMany')
              : code === 'BAD_REQUEST' || code === 'NOT_FOUND' || code === 'UNAUTHORIZED' || code === 'CONFLICT'
                ? t('invitation.invalid')
                : t('app.failed'),
        });
      },
    }),
  );

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const next = {
      password:
        password.length < MIN_PASSWORD || password.length > MAX_PASSWORD
          ? t('invitation.tooShort', { min: MIN_PASSWORD })
          : undefined,
      confirm: confirm !== password ? t('invitation.mismatch') : undefined,
    };
    setErrors(next);
    if (!next.password && !next.confirm && token) accept.mutate({ token, password });
  };

  return (
    <AuthFrame title={t('invitation.title')} intro={t('invitation.intro')}>
      {!token ? (
        <Notice tone="error">{t('invitation.missing')}</Notice>
      ) : (
        <form onSubmit={submit} noValidate className="grid gap-4">
          <PasswordField
            id={`${id}-password`}
            label={t('invitation.password')}
            autoComplete="new-password"
            value={password}
            onChange={setPassword}
            error={errors.password}
          />
          <PasswordField
            id={`${id}-confirm`}
            label={t('invitation.confirm')}
            autoComplete="new-password"
            value={confirm}
            onChange={setConfirm}
            error={errors.confirm}
          />
          {errors.form && <Notice tone="error">{errors.form}</Notice>}
          <SubmitButton
            pending={accept.isPending}
            label={t('invitation.submit')}
            pendingLabel={t('invitation.submitting')}
          />
        </form>
      )}
    </AuthFrame>
  );
}
