/**
 * Handing a refund's credit note out (docs/payments.md#credit-notes): downloaded as a PDF, or
 * e-mailed to the payer through the job queue within hourly limits. Each is recorded.
 */
import { randomUUID } from 'node:crypto';
import { refunds } from '../../db/schema';
import { AppError } from '../../errors';
import { countEvents, type EventLimit } from '../../auth/rate-events';
import { REFUND_MESSAGES } from '@shared/schemas/refunds';
import { recordAudit } from '../audit/audit.service';
import type { ServiceContext } from '../context';
import { invalidateReads } from '../read-cache';
import { loadOrganisation, logoForPdf } from '../settings/organisation.service';
import { buildCreditNotePdf, loadCreditNote } from './credit-note';
import { findRefund } from './refunds.service';

/** The credit note as a PDF (docs/payments.md#credit-notes); each download is recorded. */
export async function creditNotePdf(ctx: ServiceContext, id: string): Promise<{ fileName: string; pdf: Buffer }> {
  const r = await findRefund(ctx, id);
  const organisation = await loadOrganisation(ctx.db, ctx.deps.config);
  const note = await loadCreditNote(ctx.db, r.id, organisation);
  if (!note) throw new AppError('NOT_FOUND', REFUND_MESSAGES.notFound);
  const pdf = buildCreditNotePdf(note, ctx.deps.config.TIME_ZONE, await logoForPdf(ctx.db, organisation));
  await recordAudit(ctx.db, ctx, {
    action: 'download',
    entityType: 'credit_note',
    entityId: r.id,
    parent: parentOf(r),
    summary: `Downloaded credit note ${r.creditNoteNumber} of ${r.payerName} for ${r.subject}`,
  });
  invalidateReads(ctx.deps);
  return { fileName: `credit-note-${r.creditNoteNumber}.pdf`, pdf };
}

const parentOf = (r: typeof refunds.$inferSelect) =>
  r.enrollmentId
    ? { type: 'enrollment' as const, id: r.enrollmentId }
    : r.bookingId
      ? { type: 'booking' as const, id: r.bookingId }
      : undefined;

/** As receipts: a payer gets a credit note again when they ask, not a flood of them. */
export const CREDIT_NOTE_EMAILS_PER_REFUND: EventLimit = {
  bucket: 'credit-note-email:refund',
  max: 3,
  windowMs: 60 * 60_000,
  message: 'This credit note has been e-mailed 3 times in the last hour. Please try again later.',
};
export const CREDIT_NOTE_EMAILS_PER_SENDER: EventLimit = {
  bucket: 'credit-note-email:sender',
  max: 30,
  windowMs: 60 * 60_000,
  message: 'You have e-mailed 30 credit notes in the last hour. Please try again later.',
};

/** POST /api/refunds/{id}/email: the credit note to the payer through the job queue (202). */
export async function emailCreditNote(ctx: ServiceContext, id: string): Promise<{ message: string; jobId: string }> {
  const r = await findRefund(ctx, id);
  if (!r.payerId || !r.payerEmail) {
    throw new AppError(
      'CONFLICT',
      "The payer's account no longer exists, so there is no address to send the credit note to.",
    );
  }
  const { payerId, payerEmail } = r;
  await countEvents(ctx.db, [
    { limit: CREDIT_NOTE_EMAILS_PER_REFUND, key: r.id },
    { limit: CREDIT_NOTE_EMAILS_PER_SENDER, key: ctx.actor.id },
  ]);
  const job = await ctx.db.transaction(async (tx) => {
    const queued = await ctx.deps.jobs.enqueue(
      'send-email',
      { key: `credit-note:${r.id}:${randomUUID()}`, template: 'credit_note', userId: payerId, ref: r.id },
      { tx },
    );
    await recordAudit(tx, ctx, {
      action: 'email',
      entityType: 'credit_note',
      entityId: r.id,
      parent: parentOf(r),
      summary: `E-mailed credit note ${r.creditNoteNumber} to ${payerEmail}`,
      changes: [{ field: 'to', before: null, after: payerEmail }],
    });
    return queued;
  });
  invalidateReads(ctx.deps);
  void ctx.deps.jobs.flush?.();
  return { message: `Credit note ${r.creditNoteNumber} will be e-mailed to ${payerEmail}.`, jobId: job.id };
}
