import { z } from 'zod';

/**
 * Every job: name -> payload schema. Payloads carry ids, never personal data.
 * Handlers live in handlers.ts; the server enqueues, the worker (or the in-process driver) runs.
 */
export const JOB_PAYLOADS = {
  'send-email': z.object({
    /** Idempotency key: a job that runs twice sends one email. */
    key: z.string().min(1),
    /** 'reminder', 'receipt' and 'statement' are queued no more (they are messages); kept for jobs queued before. */
    template: z.enum(['otp', 'reminder', 'receipt', 'statement', 'credit_note', 'portal_code', 'invitation']),
    userId: z.string().uuid(),
    /** Template-specific reference (the OTP row id, the installment id, the payment id, a statement's `from..to`, the refund id, the portal code's or invitation's row id). */
    ref: z.string().optional(),
  }),
  'send-overdue-reminders': z.object({ requestedBy: z.string().uuid().optional() }),
  /** docs/messages.md: sends one planned message (the row holds everything else). */
  'send-message': z.object({ messageId: z.string().uuid() }),
  'build-report': z.object({ reportFileId: z.string().uuid() }),
  /** docs/audit.md#retention: queued by the daily run when AUDIT_RETENTION_MONTHS is set. */
  'archive-audit-log': z.object({}),
} as const;

export type JobName = keyof typeof JOB_PAYLOADS;
export type JobPayload<N extends JobName> = z.infer<(typeof JOB_PAYLOADS)[N]>;

export const JOB_NAMES: JobName[] = Object.keys(JOB_PAYLOADS).filter(isJobName);

export function isJobName(name: string): name is JobName {
  return Object.hasOwn(JOB_PAYLOADS, name);
}

/** Validates on both sides: an enqueue with a bad payload is a bug, a stored one is rejected before it runs. */
export function parsePayload<N extends JobName>(name: N, payload: unknown): JobPayload<N> {
  return JOB_PAYLOADS[name].parse(payload) as JobPayload<N>;
}

/** A caller's job key as a BullMQ job id (BullMQ refuses ':' in custom ids; callers use it freely). */
export function jobIdFor(key: string): string {
  return key.replaceAll(':', '.');
}
