import { useMutation } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { toast } from 'sonner';
import { SubmitButton } from '@/components/form-feedback';
import { FormField, FormMessage, ZodFormElement } from '@/components/form-field';
import { Input } from '@/components/ui/input';
import { explainedMessage } from '@/lib/errors';
import { trpc } from '@/lib/trpc';
import { useZodForm } from '@/lib/use-zod-form';
import { ZForgotPasswordInput } from '@shared/schemas/users';
import { AuthCard } from './auth-card';

export const OTP_SENT = 'OTP sent to your email. Please check your inbox.';
export const OTP_SEND_FAILED = 'Failed to send OTP. Please try again.';

/** docs/product.md#screens-and-routes, Forgot Password: one email field, 'Send OTP', then on to /reset-password with the email. */
export function ForgotPasswordPage() {
  const navigate = useNavigate();
  const form = useZodForm(ZForgotPasswordInput, { email: '' });
  const send = useMutation(trpc.users.forgotPassword.mutationOptions());

  return (
    <AuthCard title="Forgot Password" description="Enter your account's email and we will send you a one-time code.">
      <ZodFormElement
        form={form}
        idPrefix="forgot"
        className="grid gap-4"
        onValid={(values) =>
          send.mutate(values, {
            onSuccess: () => {
              toast.success(OTP_SENT);
              void navigate({ to: '/reset-password', search: { email: values.email } });
            },
            // A refusal names its wait (a code asked for moments ago, too many this hour).
            onError: (err) => form.failRequest(err, explainedMessage(err, OTP_SEND_FAILED)),
          })
        }
      >
        <FormField name="email" label="Email">
          {(field) => <Input {...field} type="email" autoComplete="email" placeholder="you@example.com" autoFocus />}
        </FormField>
        <FormMessage />
        <SubmitButton pending={send.isPending} pendingText="Sending..." className="w-full">
          Send OTP
        </SubmitButton>
        <Link to="/login" className="text-center text-sm text-primary underline-offset-4 hover:underline">
          Back to sign in
        </Link>
      </ZodFormElement>
    </AuthCard>
  );
}
