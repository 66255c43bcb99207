import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import type { AuditChange } from '../../../shared/audit';
import { createdAt, id, instant, trigramIndex } from './common';

/**
 * The audit trail (docs/audit.md): one row per change, written in the change's own transaction.
 * Append-only: a trigger (in the migration that creates the table) refuses UPDATE, DELETE and
 * TRUNCATE, and the production role needs only INSERT and SELECT here. So nothing refers to
 * other tables: a deleted user's entries stay, naming who they were.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: id(),
    // clock_timestamp, not now(): several entries of one transaction keep the order they were written in.
    createdAt: instant('created_at')
      .notNull()
      .default(sql`clock_timestamp()`),
    /** Who acted, as they were at that moment; null for an anonymous caller (a failed sign-in). */
    actorId: uuid('actor_id'),
    actorUsername: text('actor_username'),
    actorRole: text('actor_role'),
    action: text('action').notNull(),
    entityType: text('entity_type').notNull(),
    entityId: text('entity_id'),
    /**
     * The record whose History also shows this entry: an installment's, fee's, session's, note's,
     * payment's or receipt's enrolment or booking (`enrollment` / `booking` and its id); null for
     * a record that stands alone (a user, a course).
     */
    parentType: text('parent_type'),
    parentId: text('parent_id'),
    summary: text('summary').notNull(),
    changes: jsonb('changes').$type<AuditChange[]>().notNull().default([]),
    ip: text('ip'),
    userAgent: text('user_agent'),
    requestId: text('request_id'),
  },
  (t) => [
    // Keyset paging, newest first: (created_at, id) < cursor, for the whole log and for each filter.
    // NULLS FIRST is what a plain `order by … desc` means, so the planner walks these as they are.
    index('audit_log_created_idx').on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('audit_log_entity_idx').on(
      t.entityType,
      t.entityId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('audit_log_parent_idx').on(
      t.parentType,
      t.parentId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('audit_log_entity_type_idx').on(t.entityType, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('audit_log_actor_idx').on(t.actorId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('audit_log_action_idx').on(t.action, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    // Free-text search on the summary is "contains" (ILIKE '%text%'): a trigram index serves it.
    trigramIndex('audit_log_summary_trgm_idx', t.summary),
  ],
);

/**
 * One row per archive run (docs/audit.md#retention), written only by the `audit_log_purge`
 * function (SECURITY DEFINER, in the migration that creates this table): the only way entries
 * leave `audit_log`. The append-only trigger lets a DELETE through only for entries older than
 * the cutoff of a run recorded in the same transaction.
 */
export const auditArchiveRuns = pgTable(
  'audit_archive_runs',
  {
    id: id(),
    createdAt: createdAt(),
    /** Entries created before this instant were archived and removed. */
    cutoff: instant('cutoff').notNull(),
    entryCount: integer('entry_count').notNull(),
    /** The archive file's name in AUDIT_ARCHIVE_DIR. */
    archiveFile: text('archive_file').notNull(),
    /** The transaction that removed them (txid_current()): what the trigger checks. */
    txId: bigint('tx_id', { mode: 'number' }).notNull(),
  },
  (t) => [index('audit_archive_runs_tx_idx').on(t.txId)],
);
