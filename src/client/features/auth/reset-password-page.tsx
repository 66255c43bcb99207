import { useMutation } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { FormError, SubmitButton } from '@/components/form-feedback';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { explainedMessage } from '@/lib/errors';
import { trpc } from '@/lib/trpc';
import { useFormError } from '@/lib/use-form-error';
import { AuthCard } from './auth-card';

export const OTP_REQUIRED = 'Please enter the OTP.';
export const OTP_INVALID = 'Invalid OTP. Please try again.';
export const OTP_CHECK_FAILED = 'Failed to validate OTP. Please try again.';
export const PASSWORDS_DIFFER = 'Passwords do not match.';
export const RESET_FAILED = 'Failed to reset password. Please try again.';
export const RESET_DONE = 'Password reset successful. Please login with your new password.';

/**
 * docs/product.md#screens-and-routes and 4: enter the OTP and verify it; when valid, the new-password form appears;
 * on success back to /login. The server checks the code again when the password is set.
 */
export function ResetPasswordPage({ email: initialEmail }: { email?: string }) {
  const navigate = useNavigate();
  const [email, setEmail] = useState(initialEmail ?? '');
  const [otp, setOtp] = useState('');
  const [verified, setVerified] = useState(false);
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const { error, fail, failRequest, clear } = useFormError();

  const validate = useMutation(trpc.users.validateOtp.mutationOptions());
  const reset = useMutation(trpc.users.resetPassword.mutationOptions());
  const resend = useMutation(trpc.users.forgotPassword.mutationOptions());

  const onVerify = (e: FormEvent) => {
    e.preventDefault();
    clear();
    if (!otp.trim()) return fail(OTP_REQUIRED);
    if (!email.trim()) return fail('Please enter your email.');
    validate.mutate(
      { email: email.trim(), otp: otp.trim() },
      {
        onSuccess: (answer) => {
          if (answer.success) setVerified(true);
          else fail(OTP_INVALID);
        },
        // The server explains a wrong, expired or locked code; anything else is a transport failure.
        onError: (err) => failRequest(err, explainedMessage(err, OTP_CHECK_FAILED)),
      },
    );
  };

  const onReset = (e: FormEvent) => {
    e.preventDefault();
    clear();
    if (password !== confirm) return fail(PASSWORDS_DIFFER);
    if (password.length < 8) return fail('Password must be at least 8 characters.');
    reset.mutate(
      { email: email.trim(), otp: otp.trim(), password },
      {
        onSuccess: () => {
          toast.success(RESET_DONE);
          void navigate({ to: '/login' });
        },
        onError: (err) => failRequest(err, explainedMessage(err, RESET_FAILED)),
      },
    );
  };

  const errorBox = <FormError error={error} />;

  if (!verified) {
    return (
      <AuthCard
        title="Reset Password"
        description={
          initialEmail
            ? `Enter the 6-digit code we sent to ${initialEmail}.`
            : 'Enter your email and the 6-digit code we sent you.'
        }
      >
        <form onSubmit={onVerify} onChange={clear} className="grid gap-4" noValidate>
          {!initialEmail && (
            <div className="grid gap-2">
              <Label htmlFor="reset-email">Email</Label>
              <Input
                id="reset-email"
                type="email"
                autoComplete="email"
                value={email}
                onChange={(e) => setEmail(e.target.value)}
              />
            </div>
          )}
          <div className="grid gap-2">
            <Label htmlFor="reset-otp">OTP</Label>
            <Input
              id="reset-otp"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              value={otp}
              onChange={(e) => setOtp(e.target.value.replace(/\D/g, ''))}
              placeholder="123456"
              className="text-center text-lg tracking-[0.4em]"
              autoFocus
            />
          </div>
          {errorBox}
          <SubmitButton pending={validate.isPending} pendingText="Verifying..." className="w-full">
            Verify OTP
          </SubmitButton>
          <div className="flex justify-between text-sm">
            <Button
              type="button"
              variant="link"
              className="h-auto p-0"
              disabled={resend.isPending || !email.trim()}
              onClick={() =>
                resend.mutate(
                  { email: email.trim() },
                  {
                    onSuccess: () => toast.success('OTP sent to your email. Please check your inbox.'),
                    onError: () => toast.error('Failed to send OTP. Please try again.'),
                  },
                )
              }
            >
              Send a new code
            </Button>
            <Link to="/login" className="text-primary underline-offset-4 hover:underline">
              Back to sign in
            </Link>
          </div>
        </form>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Set a new password"
      description="Choose a password of at least 8 characters. Every other session of your account will be signed out."
    >
      <form onSubmit={onReset} onChange={clear} className="grid gap-4" noValidate>
        <div className="grid gap-2">
          <Label htmlFor="new-password">New Password</Label>
          <Input
            id="new-password"
            type="password"
            autoComplete="new-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            autoFocus
          />
        </div>
        <div className="grid gap-2">
          <Label htmlFor="confirm-password">Confirm Password</Label>
          <Input
            id="confirm-password"
            type="password"
            autoComplete="new-password"
            value={confirm}
            onChange={(e) => setConfirm(e.target.value)}
          />
        </div>
        {errorBox}
        <SubmitButton pending={reset.isPending} pendingText="Resetting..." className="w-full">
          Reset Password
        </SubmitButton>
      </form>
    </AuthCard>
  );
}
