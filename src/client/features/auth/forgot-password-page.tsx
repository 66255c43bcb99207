import { useMutation } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { trpc } from '@/lib/trpc';
import { AuthCard } from './auth-card';

export const OTP_SENT = 'OTP sent to your email. Please check your inbox.';
export const OTP_SEND_FAILED = 'Failed to send OTP. Please try again.';

/** spec section 2, Forgot Password: one email field, 'Send OTP', then on to /reset-password with the email. */
export function ForgotPasswordPage() {
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const send = useMutation(trpc.users.forgotPassword.mutationOptions());

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    if (!email.trim()) {
      setError('Please enter your email.');
      return;
    }
    send.mutate(
      { email: email.trim() },
      {
        onSuccess: async () => {
          toast.success(OTP_SENT);
          await navigate({ to: '/reset-password', search: { email: email.trim() } });
        },
        onError: () => {
          setError(OTP_SEND_FAILED);
          toast.error(OTP_SEND_FAILED);
        },
      },
    );
  };

  return (
    <AuthCard title="Forgot Password" description="Enter your account's email and we will send you a one-time code.">
      <form onSubmit={onSubmit} className="grid gap-4" noValidate>
        <div className="grid gap-2">
          <Label htmlFor="forgot-email">Email</Label>
          <Input id="forgot-email" type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} placeholder="you@example.com" autoFocus />
        </div>
        {error && (
          <p role="alert" className="text-sm text-destructive">
            {error}
          </p>
        )}
        <Button type="submit" className="w-full" disabled={send.isPending}>
          {send.isPending && <Spinner />}
          {send.isPending ? 'Sending...' : 'Send OTP'}
        </Button>
        <Link to="/login" className="text-center text-sm text-primary underline-offset-4 hover:underline">
          Back to sign in
        </Link>
      </form>
    </AuthCard>
  );
}
