/*
 * Finding a person by what a front desk hears (docs/users.md#finding-a-user): part of a name, a
 * phone in any spelling, or a NIC. Phones are stored in E.164, so the typed text is read the same
 * way: a whole number matches exactly, a part matches its digits without the leading 0.
 */
import { or, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { users } from '../db/schema';
import { toE164 } from '@shared/schemas/person';
import { ilikeContains } from './sql-conditions';

/** The condition on a stored E.164 phone for typed text, or undefined when the text has too few digits. */
export function phoneMatches(phone: AnyPgColumn | SQL, text: string): SQL | undefined {
  const trimmed = text.trim();
  if (!/^\+?[\d\s().-]+$/.test(trimmed)) return undefined;
  const whole = toE164(trimmed);
  if (whole) return sql`${phone} = ${whole}`;
  const digits = trimmed.replace(/\D/g, '');
  // "077 12" is the local form of "+9477 12...": without the trunk 0 the digits are in the E.164 text.
  const part = trimmed.startsWith('+') ? digits : digits.replace(/^0+/, '');
  return part.length >= 3 ? ilikeContains(phone, part) : undefined;
}

/** A NIC is stored upper-case and without spaces; part of one is matched as typed. */
export function nicMatches(nic: AnyPgColumn | SQL, text: string): SQL | undefined {
  const compact = text.replace(/\s+/g, '').toUpperCase();
  return /^\d{3,}[VX]?$/.test(compact) ? ilikeContains(nic, compact) : undefined;
}

/** Name, phone or NIC of a users row (the trigram indexes on each serve "contains"). */
export function personMatches(
  cols: { fullName: AnyPgColumn | SQL; phone: AnyPgColumn | SQL; nic: AnyPgColumn | SQL },
  text: string,
): SQL | undefined {
  return or(ilikeContains(cols.fullName, text), phoneMatches(cols.phone, text), nicMatches(cols.nic, text));
}

/**
 * `column in (ids of users whose name, phone or NIC matches)`: a list's rows of those people. The
 * subquery reads the users' trigram indexes, then the list's index on its user column.
 */
export function ofPeopleMatching(column: AnyPgColumn, text: string): SQL {
  return sql`${column} in (select ${users.id} from ${users} where ${personMatches(users, text)})`;
}
