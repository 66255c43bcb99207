import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { drizzle } from 'drizzle-orm/postgres-js';
import { migrate } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { withDatabase } from '../setup/services';
import { startTestApp, type TestApp } from '../helpers/app';

/**
 * docs/payments.md#carried-over-payments: a database from before the ledger, with installments and
 * admission fees marked paid by the old switch, migrates without loss: each becomes one valid
 * payment of method "other", received when it was marked paid, numbered per branch and year in
 * that order; new payments continue the numbering.
 */
const root = path.resolve(__dirname, '../..');
const adminUrl = () => inject('adminDatabaseUrl');
let url: string;
let sql: postgres.Sql;
let folder: string;
let t: TestApp | undefined;

/** The migrations up to (not including) the ledger's. */
function migrationsBefore(tag: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'migrations-'));
  cpSync(path.join(root, 'drizzle'), dir, { recursive: true });
  const journalPath = path.join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: Array<{ tag: string }> };
  const cut = journal.entries.findIndex((e) => e.tag === tag);
  journal.entries = journal.entries.slice(0, cut);
  writeFileSync(journalPath, JSON.stringify(journal));
  return dir;
}

beforeAll(async () => {
  const name = `mig_${randomBytes(5).toString('hex')}`;
  const admin = postgres(adminUrl(), { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  url = withDatabase(adminUrl(), name);
  sql = postgres(url, { max: 1, onnotice: () => {} });
  folder = migrationsBefore('0007_payments_ledger');
  await migrate(drizzle({ client: sql }), { migrationsFolder: folder });

  // Data as the old switch left it.
  const [galle] = await sql`insert into branches (name, location) values ('Galle', 'Fort') returning id`;
  const [nimal] = await sql`insert into users (username, full_name, email, password_hash, role, branch_id)
    values ('nimal', 'Nimal Perera', 'nimal@example.com', 'x', 'student', ${galle!.id}) returning id`;
  const [kamala] = await sql`insert into users (username, full_name, email, password_hash, role)
    values ('kamala', 'Kamala', 'kamala@example.com', 'x', 'customer') returning id`;
  const [course] =
    await sql`insert into courses (course_name, duration, total_fee_minor, installments, category, admission_fee_minor)
    values ('Yoga', '3 months', 3000000, 3, 'Wellness', 250000) returning id`;
  const [e] = await sql`insert into enrollments (user_id, course_id, payment_type, total_fee_minor, admission_fee_minor,
      admission_fee_paid, admission_fee_paid_at, enrolled_on)
    values (${nimal!.id}, ${course!.id}, 'installment', 3000000, 250000, true, '2025-01-05T10:00:00Z', '2025-01-05') returning id`;
  await sql`insert into enrollment_installments (enrollment_id, seq, amount_minor, due_date, is_paid, paid_at) values
    (${e!.id}, 0, 1000000, '2025-01-05', true, '2025-01-06T10:00:00Z'),
    (${e!.id}, 1, 1000000, '2025-02-05', true, '2026-02-06T10:00:00Z'),
    (${e!.id}, 2, 1000000, '2025-03-05', false, null)`;
  const [tr] =
    await sql`insert into treatments (treatment_name, local_price_minor, foreign_price_minor, max_sessions, installments)
    values ('Massage', 500000, 2000, 4, 1) returning id`;
  const [b] = await sql`insert into treatment_bookings (user_id, treatment_id, treatment_name, max_sessions, user_type,
      payment_type, payment_status, price_minor, currency, booked_on)
    values (${kamala!.id}, ${tr!.id}, 'Massage', 4, 'local', 'full', 'paid', 500000, 'LKR', '2025-03-01') returning id`;
  await sql`insert into booking_installments (booking_id, seq, amount_minor, due_date, is_paid, paid_at)
    values (${b!.id}, 0, 500000, '2025-03-01', true, '2025-03-01T09:00:00Z')`;

  await migrate(drizzle({ client: sql }), { migrationsFolder: path.join(root, 'drizzle') });
});

afterAll(async () => {
  await t?.close();
  await sql.end();
  rmSync(folder, { recursive: true, force: true });
  const admin = postgres(adminUrl(), { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists ${new URL(url).pathname.slice(1)} with (force)`);
  await admin.end();
});

describe('carrying the paid/unpaid switch over to the ledger', () => {
  it('turns every paid fee and installment into one valid payment, numbered per branch and year by when it was paid', async () => {
    const rows = await sql<
      Array<{ receipt_number: string; amount_minor: string; method: string; status: string; received_at: Date }>
    >`select receipt_number, amount_minor, method, status, received_at from payments order by received_at`;
    expect(rows.map((r) => [r.receipt_number, Number(r.amount_minor), r.method, r.status])).toEqual([
      ['GAL-2025-000001', 250000, 'other', 'valid'],
      ['GAL-2025-000002', 1000000, 'other', 'valid'],
      ['GEN-2025-000001', 500000, 'other', 'valid'],
      ['GAL-2026-000001', 1000000, 'other', 'valid'],
    ]);
    expect(new Date(rows[0]!.received_at).toISOString()).toBe('2025-01-05T10:00:00.000Z');
    const [alloc] = await sql`select count(*)::int as n from payment_allocations`;
    expect(alloc!.n).toBe(4);
    const paid = await sql`select amount_minor, amount_paid_minor, is_paid from enrollment_installments order by seq`;
    expect(paid.map((r) => [Number(r.amount_paid_minor), r.is_paid])).toEqual([
      [1000000, true],
      [1000000, true],
      [0, false],
    ]);
  });

  it('keeps numbering from where the carried-over receipts stopped', async () => {
    t = await startTestApp({}, { databaseUrl: url });
    const admin = await t.userWithSession('admin');
    const [e] = await sql`select id from enrollments`;
    const res = await t.api('POST', '/api/payments', {
      token: admin.token,
      body: { enrollmentId: e!.id, amount: 100, method: 'cash' },
    });
    expect(res.status).toBe(201);
    const year = new Date().getFullYear();
    expect(res.body.receiptNumber).toBe(year === 2026 ? 'GAL-2026-000002' : `GAL-${year}-000001`);
    const list = await t.api('GET', `/api/enrollments/${e!.id}/payments`, { token: admin.token });
    expect(list.body).toHaveLength(4);
  });
});
