import { z } from 'zod';

/**
 * Every job: name -> payload schema. Payloads carry ids, never personal data.
 * Handlers live in handlers.ts; the server enqueues, the worker (or the in-process driver) runs.
 */
export const JOB_PAYLOADS = {
  'send-email': z.object({
    /** Idempotency key: a job that runs twice sends one email. */
    key: z.string().min(1),
    template: z.enum(['otp', 'reminder']),
    userId: z.string().uuid(),
    /** Template-specific reference (the OTP row id, the installment id). */
    ref: z.string().optional(),
  }),
  'send-overdue-reminders': z.object({ requestedBy: z.string().uuid().optional() }),
  'build-report': z.object({ reportFileId: z.string().uuid() }),
} as const;

export type JobName = keyof typeof JOB_PAYLOADS;
export type JobPayload<N extends JobName> = z.infer<(typeof JOB_PAYLOADS)[N]>;
