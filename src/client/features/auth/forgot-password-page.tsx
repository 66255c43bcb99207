import { useMutation } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { FormError, SubmitButton } from '@/components/form-feedback';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { trpc } from '@/lib/trpc';
import { useFormError } from '@/lib/use-form-error';
import { AuthCard } from './auth-card';

export const OTP_SENT = 'OTP sent to your email. Please check your inbox.';
export const OTP_SEND_FAILED = 'Failed to send OTP. Please try again.';

/** docs/product.md#screens-and-routes, Forgot Password: one email field, 'Send OTP', then on to /reset-password with the email. */
export function ForgotPasswordPage() {
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const { error, setError, failRequest, clear } = useFormError();
  const send = useMutation(trpc.users.forgotPassword.mutationOptions());

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    clear();
    if (!email.trim()) {
      setError('Please enter your email.');
      return;
    }
    send.mutate(
      { email: email.trim() },
      {
        onSuccess: () => {
          toast.success(OTP_SENT);
          void navigate({ to: '/reset-password', search: { email: email.trim() } });
        },
        onError: (err) => failRequest(err, OTP_SEND_FAILED),
      },
    );
  };

  return (
    <AuthCard title="Forgot Password" description="Enter your account's email and we will send you a one-time code.">
      <form onSubmit={onSubmit} onChange={clear} className="grid gap-4" noValidate>
        <div className="grid gap-2">
          <Label htmlFor="forgot-email">Email</Label>
          <Input
            id="forgot-email"
            type="email"
            autoComplete="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            placeholder="you@example.com"
            autoFocus
          />
        </div>
        <FormError error={error} />
        <SubmitButton pending={send.isPending} pendingText="Sending..." className="w-full">
          Send OTP
        </SubmitButton>
        <Link to="/login" className="text-center text-sm text-primary underline-offset-4 hover:underline">
          Back to sign in
        </Link>
      </form>
    </AuthCard>
  );
}
