import { useMutation } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useWatch } from 'react-hook-form';
import { toast } from 'sonner';
import { z } from 'zod';
import { SubmitButton } from '@/components/form-feedback';
import { FormField, FormMessage, ZodFormElement } from '@/components/form-field';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { explainedMessage } from '@/lib/errors';
import { trpc } from '@/lib/trpc';
import { useZodForm } from '@/lib/use-zod-form';
import { INVALID_OTP, ZEmail, ZPassword, ZValidateOtpInput, type TValidateOtpInput } from '@shared/schemas/users';
import { AuthCard } from './auth-card';
import { OTP_SEND_FAILED, OTP_SENT } from './forgot-password-page';

export const OTP_CHECK_FAILED = 'Failed to validate OTP. Please try again.';
export const PASSWORDS_DIFFER = 'Passwords do not match.';
export const RESET_FAILED = 'Failed to reset password. Please try again.';
export const RESET_DONE = 'Password reset successful. Please login with your new password.';

/** The new password as the server checks it, typed twice: the second copy never leaves the screen. */
const ZNewPassword = z
  .object({ password: ZPassword, confirm: z.string() })
  .refine((v) => v.password === v.confirm, { message: PASSWORDS_DIFFER, path: ['confirm'], when: () => true });

/**
 * docs/product.md#screens-and-routes: enter the OTP and verify it; when valid, the new-password form appears;
 * on success back to /login. The server checks the code again when the password is set.
 */
export function ResetPasswordPage({ email }: { email?: string }) {
  const [verified, setVerified] = useState<TValidateOtpInput | null>(null);
  return verified ? <NewPasswordStep code={verified} /> : <VerifyOtpStep email={email} onVerified={setVerified} />;
}

function VerifyOtpStep({ email, onVerified }: { email?: string; onVerified: (code: TValidateOtpInput) => void }) {
  const form = useZodForm(ZValidateOtpInput, { email: email ?? '', otp: '' });
  const typedEmail = useWatch({ control: form.control, name: 'email' }).trim();
  // The email comes with the link from Forgot Password; the field shows only when it does not (or is not an email).
  const askEmail = !email || !ZEmail.safeParse(email).success;
  const validate = useMutation(trpc.users.validateOtp.mutationOptions());
  const resend = useMutation(trpc.users.forgotPassword.mutationOptions());

  const onValid = (values: TValidateOtpInput) =>
    validate.mutate(values, {
      onSuccess: (answer) => {
        if (answer.success) onVerified(values);
        else form.setError('otp', { message: INVALID_OTP });
      },
      // The server explains a wrong, expired or locked code; anything else is a transport failure.
      onError: (err) => form.failRequest(err, explainedMessage(err, OTP_CHECK_FAILED)),
    });

  return (
    <AuthCard
      title="Reset Password"
      description={
        email ? `Enter the 6-digit code we sent to ${email}.` : 'Enter your email and the 6-digit code we sent you.'
      }
    >
      <ZodFormElement form={form} idPrefix="reset" onValid={onValid} className="grid gap-4">
        {askEmail && (
          <FormField name="email" label="Email">
            {(field) => <Input {...field} type="email" autoComplete="email" />}
          </FormField>
        )}
        <FormField name="otp" label="OTP">
          {(field) => (
            <Input
              {...field}
              onChange={(e) => field.onChange(e.target.value.replace(/\D/g, ''))}
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              placeholder="123456"
              className="text-center text-lg tracking-[0.4em]"
              autoFocus
            />
          )}
        </FormField>
        <FormMessage />
        <SubmitButton pending={validate.isPending} pendingText="Verifying..." className="w-full">
          Verify OTP
        </SubmitButton>
        <div className="flex justify-between text-sm">
          <Button
            type="button"
            variant="link"
            className="h-auto p-0"
            disabled={resend.isPending || !typedEmail}
            onClick={() =>
              resend.mutate(
                { email: typedEmail },
                {
                  onSuccess: () => toast.success(OTP_SENT),
                  onError: (err) => toast.error(explainedMessage(err, OTP_SEND_FAILED)),
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
      </ZodFormElement>
    </AuthCard>
  );
}

function NewPasswordStep({ code }: { code: TValidateOtpInput }) {
  const navigate = useNavigate();
  const form = useZodForm(ZNewPassword, { password: '', confirm: '' });
  const reset = useMutation(trpc.users.resetPassword.mutationOptions());

  const onValid = ({ password }: { password: string }) =>
    reset.mutate(
      { ...code, password },
      {
        onSuccess: () => {
          toast.success(RESET_DONE);
          void navigate({ to: '/login' });
        },
        onError: (err) => form.failRequest(err, explainedMessage(err, RESET_FAILED)),
      },
    );

  return (
    <AuthCard
      title="Set a new password"
      description="Choose a password of at least 8 characters. Every other session of your account will be signed out."
    >
      <ZodFormElement form={form} onValid={onValid} className="grid gap-4">
        <FormField name="password" id="new-password" label="New Password">
          {(field) => <Input {...field} type="password" autoComplete="new-password" autoFocus />}
        </FormField>
        <FormField name="confirm" id="confirm-password" label="Confirm Password">
          {(field) => <Input {...field} type="password" autoComplete="new-password" />}
        </FormField>
        <FormMessage />
        <SubmitButton pending={reset.isPending} pendingText="Resetting..." className="w-full">
          Reset Password
        </SubmitButton>
      </ZodFormElement>
    </AuthCard>
  );
}
