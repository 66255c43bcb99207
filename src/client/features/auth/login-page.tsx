import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useRouter } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { FormError, SubmitButton } from '@/components/form-feedback';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { rememberSignedInUser } from '@/lib/auth';
import { errorCode } from '@/lib/errors';
import { safeRedirect } from '@/lib/public-paths';
import { trpc } from '@/lib/trpc';
import { AuthCard } from './auth-card';

export const LOGIN_INVALID = 'Invalid email or password. Please try again.';
export const LOGIN_FAILED = 'An error occurred. Please try again later.';
export const LOGIN_EMPTY = 'Please enter your email and password.';

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
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const login = useMutation(trpc.auth.login.mutationOptions());

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    // An empty form is answered here: asking the server would only spend a sign-in attempt.
    if (!email.trim() || !password) {
      setError(LOGIN_EMPTY);
      return;
    }
    setError(null);
    login.mutate(
      { email, password },
      {
        onSuccess: (user) => {
          rememberSignedInUser(queryClient, user);
          const target = safeRedirect(redirect);
          if (target) router.history.push(target);
          else void router.navigate({ to: '/' });
        },
        onError: (err) => {
          setError(loginErrorMessage(err));
        },
      },
    );
  };

  return (
    <AuthCard title="Sign in" description="Enter your email and password to continue.">
      <form onSubmit={onSubmit} onChange={() => setError(null)} className="grid gap-4" noValidate>
        <div className="grid gap-2">
          <Label htmlFor="email">Email</Label>
          <Input
            id="email"
            type="email"
            autoComplete="email"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            placeholder="you@example.com"
          />
        </div>
        <div className="grid gap-2">
          <div className="flex items-center justify-between">
            <Label htmlFor="password">Password</Label>
            <Link to="/forgot-password" className="text-sm text-primary underline-offset-4 hover:underline">
              Forgot password?
            </Link>
          </div>
          <Input
            id="password"
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </div>
        <FormError error={error} />
        <SubmitButton pending={login.isPending} pendingText="Signing in..." className="w-full">
          Sign in
        </SubmitButton>
      </form>
    </AuthCard>
  );
}
