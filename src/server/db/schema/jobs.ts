import { sql } from 'drizzle-orm';
import { bigint, date, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { bytea, createdAt, id, instant } from './common';
import { users } from './users';

/** Emails: the development outbox, and a record of what was sent through Resend. */
export const emailOutbox = pgTable(
  'email_outbox',
  {
    id: id(),
    // The job's idempotency key: a retried or duplicated job never sends the same email twice.
    idempotencyKey: text('idempotency_key').notNull(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html'),
    transport: text('transport', { enum: ['outbox', 'resend'] }).notNull(),
    providerId: text('provider_id'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('email_outbox_key_uq').on(t.idempotencyKey), index('email_outbox_to_idx').on(t.to, t.createdAt)],
);

/** A reminder for one installment goes out at most once a day, however often the job runs. */
export const reminderLog = pgTable(
  'reminder_log',
  {
    id: id(),
    installmentKind: text('installment_kind', { enum: ['enrollment', 'booking'] }).notNull(),
    installmentId: uuid('installment_id').notNull(),
    sentOn: date('sent_on', { mode: 'string' }).notNull(),
    createdAt: createdAt(),
  },
  // The installment id leads: the reminder run looks up a page of ids at a time (docs/scale.md).
  (t) => [uniqueIndex('reminder_log_installment_day_uq').on(t.installmentId, t.sentOn, t.installmentKind)],
);

/** Job state for the in-process driver (embedded mode); BullMQ keeps its own state in Redis. */
export const jobs = pgTable(
  'jobs',
  {
    id: id(),
    name: text('name').notNull(),
    payload: jsonb('payload').notNull(),
    status: text('status', { enum: ['queued', 'active', 'completed', 'failed'] })
      .notNull()
      .default('queued'),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(3),
    progress: integer('progress').notNull().default(0),
    result: jsonb('result'),
    failedReason: text('failed_reason'),
    runAt: instant('run_at').notNull().defaultNow(),
    lockedUntil: instant('locked_until'),
    createdAt: createdAt(),
    finishedAt: instant('finished_at'),
  },
  (t) => [
    index('jobs_status_run_idx')
      .on(t.status, t.runAt)
      .where(sql`${t.status} in ('queued','active')`),
  ],
);

/**
 * Report files built by the worker, kept until downloaded or expired. The file itself is stored in
 * pieces (report_file_chunks): the pieces of the run named by `runId` are the finished file
 * (docs/reports.md#how-a-built-file-is-stored).
 */
export const reportFiles = pgTable('report_files', {
  id: id(),
  requestedBy: uuid('requested_by').references(() => users.id, { onDelete: 'cascade' }),
  kind: text('kind').notNull(),
  format: text('format', { enum: ['xlsx', 'pdf', 'json'] }).notNull(),
  fileName: text('file_name').notNull(),
  contentType: text('content_type').notNull(),
  /** The build run whose pieces are the file: set with `status = 'ready'`, in the same update. */
  runId: uuid('run_id'),
  /** The file's size in bytes, set with `runId` (the download's Content-Length). */
  size: bigint('size', { mode: 'number' }),
  status: text('status', { enum: ['queued', 'building', 'ready', 'failed'] })
    .notNull()
    .default('queued'),
  progress: integer('progress').notNull().default(0),
  error: text('error'),
  params: jsonb('params').notNull(),
  createdAt: createdAt(),
  expiresAt: instant('expires_at'),
});

/**
 * A report file's bytes, about 1 MB a piece, written in order by one build run. Each run writes
 * under its own `runId`, so two runs of the same job never mix their pieces; deleting the file
 * (expiry) deletes its pieces.
 */
export const reportFileChunks = pgTable(
  'report_file_chunks',
  {
    fileId: uuid('file_id')
      .notNull()
      .references(() => reportFiles.id, { onDelete: 'cascade' }),
    runId: uuid('run_id').notNull(),
    seq: integer('seq').notNull(),
    data: bytea('data').notNull(),
  },
  (t) => [primaryKey({ columns: [t.fileId, t.runId, t.seq] })],
);

/**
 * Jobs accepted while running with BullMQ, written in the same transaction as the change that
 * needs them and handed to Redis by the relay (docs/jobs.md#the-outbox): nothing accepted is lost
 * when Redis is down, and nothing is left waiting once it is back.
 */
export const jobOutbox = pgTable(
  'job_outbox',
  {
    id: id(),
    name: text('name').notNull(),
    payload: jsonb('payload').notNull(),
    /** The BullMQ job id: handing a row over twice adds one job. */
    jobId: text('job_id').notNull(),
    delayMs: integer('delay_ms').notNull().default(0),
    createdAt: createdAt(),
    dispatchedAt: instant('dispatched_at'),
  },
  (t) => [
    index('job_outbox_pending_idx')
      .on(t.createdAt)
      .where(sql`${t.dispatchedAt} is null`),
  ],
);
