import { sql } from 'drizzle-orm';
import { boolean, check, date, index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { branches } from './branches';
import { bytea, createdAt, id, instant, keptRef, ownerRef, trigramIndex, updatedAt } from './common';

/** Uploaded files (profile pictures) live in the database so every server instance can serve them. */
export const files = pgTable('files', {
  id: id(),
  contentType: text('content_type').notNull(),
  byteSize: integer('byte_size').notNull(),
  data: bytea('data').notNull(),
  createdAt: createdAt(),
});

export const users = pgTable(
  'users',
  {
    id: id(),
    username: text('username').notNull(),
    fullName: text('full_name').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    role: text('role', { enum: ['user', 'student', 'customer', 'manager', 'admin', 'superadmin'] })
      .notNull()
      .default('user'),
    branchId: uuid('branch_id').references(() => branches.id, { onDelete: 'restrict' }),
    phone: text('phone'),
    address: text('address'),
    // Personal details (docs/users.md#personal-details): the NIC upper-case, phones in E.164.
    nic: text('nic'),
    dateOfBirth: date('date_of_birth', { mode: 'string' }),
    gender: text('gender', { enum: ['female', 'male', 'other'] }),
    emergencyContactName: text('emergency_contact_name'),
    emergencyContactRelation: text('emergency_contact_relation'),
    emergencyContactPhone: text('emergency_contact_phone'),
    /** A student's guardian's phone (E.164): the absence notice by SMS goes to it when recorded. */
    guardianPhone: text('guardian_phone'),
    imageFileId: keptRef('image_file_id', () => files.id),
    // Contact preferences (docs/users.md#contact-preferences): the language a person reads their
    // messages and portal in, and the channels they opted out of.
    language: text('language', { enum: ['en', 'si', 'ta'] })
      .notNull()
      .default('en'),
    optOutEmail: boolean('opt_out_email').notNull().default(false),
    optOutSms: boolean('opt_out_sms').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // Emails compare trimmed and case-insensitively (docs/users.md); the service stores them lowercased.
    uniqueIndex('users_email_uq').on(sql`lower(${t.email})`),
    uniqueIndex('users_username_uq').on(sql`lower(${t.username})`),
    uniqueIndex('users_nic_uq')
      .on(t.nic)
      .where(sql`${t.nic} is not null`),
    index('users_role_idx').on(t.role),
    index('users_branch_idx').on(t.branchId),
    index('users_created_idx').on(t.createdAt),
    // Staff search is "contains" (ILIKE '%text%'): only trigram indexes serve it (pg_trgm, docs/scale.md).
    trigramIndex('users_username_trgm_idx', t.username),
    trigramIndex('users_full_name_trgm_idx', t.fullName),
    trigramIndex('users_email_trgm_idx', t.email),
    // The header search also looks in phone numbers (docs/architecture.md#search).
    trigramIndex('users_phone_trgm_idx', t.phone).where(sql`${t.phone} is not null`),
    // Lists find a person by part of a NIC as well (docs/users.md#finding-a-user).
    trigramIndex('users_nic_trgm_idx', t.nic),
    // The users table sorts by these columns (then id); without an index every page sorts 100,000 rows.
    index('users_username_sort_idx').on(t.username, t.id),
    index('users_full_name_sort_idx').on(t.fullName, t.id),
    index('users_email_sort_idx').on(t.email, t.id),
    check('users_language_check', sql`${t.language} in ('en', 'si', 'ta')`),
  ],
);

/** Lucia-guide sessions: the id is the SHA-256 of the token; the token itself is never stored. */
export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: ownerRef('user_id', () => users.id),
    createdAt: createdAt(),
    lastUsedAt: instant('last_used_at').notNull().defaultNow(),
    expiresAt: instant('expires_at').notNull(),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

/**
 * Sign-in attempts being checked (`pending`) and failed ones, per email and client address, kept
 * in the database so the limits hold across server processes (docs/security.md#rate-limits-and-lock-outs).
 */
export const loginAttempts = pgTable(
  'login_attempts',
  {
    id: id(),
    email: text('email').notNull(),
    ip: text('ip').notNull().default(''),
    outcome: text('outcome', { enum: ['pending', 'failed'] })
      .notNull()
      .default('failed'),
    createdAt: createdAt(),
  },
  (t) => [
    index('login_attempts_email_ip_idx').on(t.email, t.ip, t.createdAt),
    index('login_attempts_ip_idx').on(t.ip, t.createdAt),
  ],
);

/**
 * Password-reset events per email address (whether or not it has an account, so the limits tell
 * nothing about accounts): codes requested and wrong codes entered, for the reset and, apart,
 * for the portal's sign-in codes.
 */
export const otpEvents = pgTable(
  'otp_events',
  {
    id: id(),
    email: text('email').notNull(),
    // The portal's sign-in codes are counted under kinds of their own, apart from the reset's.
    kind: text('kind', {
      enum: ['code_requested', 'wrong_code', 'portal_code_requested', 'portal_wrong_code'],
    }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('otp_events_email_kind_idx').on(t.email, t.kind, t.createdAt)],
);

/**
 * One live password-reset request per user: a new request replaces the old one. The OTP is
 * generated by the email job (so it never travels in a job payload) and only its hash is kept.
 */
export const passwordResets = pgTable(
  'password_resets',
  {
    id: id(),
    userId: ownerRef('user_id', () => users.id),
    otpHash: text('otp_hash'),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: instant('expires_at').notNull(),
    sentAt: instant('sent_at'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('password_resets_user_uq').on(t.userId)],
);
