import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useRouter } from '@tanstack/react-router';
import { SubmitButton } from '@/components/form-feedback';
import { FormField, FormMessage, ZodFormElement } from '@/components/form-field';
import { Input } from '@/components/ui/input';
import { rememberSignedInUser } from '@/lib/auth';
import { errorCode } from '@/lib/errors';
import { safeRedirect } from '@/lib/public-paths';
import { trpc } from '@/lib/trpc';
import { useZodForm } from '@/lib/use-zod-form';
import { isPortalRole } from '@shared/roles';
import { ZLoginInput } from '@shared/schemas/auth';
import { AuthCard } from './auth-card';

export const LOGIN_INVALID = 'Invalid email or password. Please try again.';
export const LOGIN_FAILED = 'An error occurred. Please try again later.';

/** docs/product.md#messages: wrong credentials, throttling (the server's words), anything else. */
export function loginErrorMessage(err: unknown): string {
  const code = errorCode(err);
  if (code === 'UNAUTHORIZED' || code === 'NOT_FOUND') return LOGIN_INVALID;
  if (code === 'TOO_MANY_REQUESTS' && err instanceof Error) return err.message;
  if (code === 'BAD_REQUEST' && err instanceof Error) return err.message;
  return LOGIN_FAILED;
}

export function LoginPage({ redirect }: { redirect?: string }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  // An empty form is answered here by the schema: asking the server would only spend a sign-in attempt.
  const form = useZodForm(ZLoginInput, { email: '', password: '' });
  const login = useMutation(
    trpc.auth.login.mutationOptions({
      onSuccess: (user) => {
        rememberSignedInUser(queryClient, user);
        // The portal is another page with its own bundle: a full load, not a route change.
        if (isPortalRole(user.role)) {
          window.location.assign('/portal');
          return;
        }
        const target = safeRedirect(redirect);
        if (target) router.history.push(target);
        else void router.navigate({ to: '/' });
      },
      onError: (err) => form.fail(loginErrorMessage(err)),
    }),
  );

  return (
    <AuthCard title="Sign in" description="Enter your email and password to continue.">
      <ZodFormElement form={form} idPrefix="login" onValid={(values) => login.mutate(values)} className="grid gap-4">
        <FormField name="email" id="email" label="Email">
          {(field) => <Input {...field} type="email" autoComplete="email" placeholder="you@example.com" />}
        </FormField>
        <FormField
          name="password"
          id="password"
          label="Password"
          labelAction={
            <Link to="/forgot-password" className="text-sm text-primary underline-offset-4 hover:underline">
              Forgot password?
            </Link>
          }
        >
          {(field) => <Input {...field} type="password" autoComplete="current-password" />}
        </FormField>
        <FormMessage />
        <SubmitButton pending={login.isPending} pendingText="Signing in..." className="w-full">
          Sign in
        </SubmitButton>
        {/* The portal's sign-in without a password: a 6-digit code by e-mail. */}
        <a
          href="/portal/sign-in?method=code"
          className="text-center text-sm text-primary underline-offset-4 hover:underline"
        >
          Sign in with a code by e-mail instead
        </a>
      </ZodFormElement>
    </AuthCard>
  );
}
