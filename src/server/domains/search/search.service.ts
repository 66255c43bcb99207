/*
 * The header search (docs/architecture.md#search): one text, looked for in people, receipt numbers,
 * courses, treatments and the enrolments and bookings of the people found. Staff only (the router
 * and the REST path check the role); people, their records and receipts obey the branch scope
 * (docs/security.md#branch-scope), courses and treatments are the catalogue every manager sees.
 */
import { and, asc, desc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { courses, enrollments, payments, treatmentBookings, treatments, users } from '../../db/schema';
import { branchCondition, branchScopeOf } from '../branch-scope';
import type { ServiceContext } from '../context';
import { ilikeContains } from '../sql-conditions';
import { PAYMENT_STATUS_LABELS } from '@shared/booking-status';
import type { SearchKind, TGlobalSearchInput, TSearchAnswer, TSearchHit } from '@shared/schemas/search';
import { SEARCH_KINDS } from '@shared/schemas/search';

/** Hits per kind, and in all: a short list to choose from, never a page to scroll. */
export const PER_KIND = 5;
export const TOTAL = 20;

/**
 * The people's columns looked in, each served by a trigram index. The number columns are looked in
 * only when the text has at least three digits, so a name never matches a phone by chance. A new
 * column (a NIC, say) is one more entry here, with its trigram index.
 */
const PERSON_TEXT_COLUMNS: AnyPgColumn[] = [users.fullName, users.username, users.email];
const PERSON_NUMBER_COLUMNS: AnyPgColumn[] = [users.phone];

function personMatch(text: string): SQL | undefined {
  const digits = text.replace(/\D/g, '').length;
  const columns = digits >= 3 ? [...PERSON_TEXT_COLUMNS, ...PERSON_NUMBER_COLUMNS] : PERSON_TEXT_COLUMNS;
  return or(...columns.map((c) => ilikeContains(c, text)));
}

/** `text` then anything: a LIKE pattern taken literally. */
function startsWithPattern(text: string): string {
  return `${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

const enc = encodeURIComponent;

interface Person {
  id: string;
  fullName: string;
  username: string;
  email: string;
}

/**
 * People by name, username, e-mail or phone: an exact username or e-mail first, then names that
 * start with the text, then by name. Ranking reads every match, which the trigram indexes keep few
 * from three characters on; a two-character text has no trigram, matches a large share of everyone,
 * and is answered in name order alone, which the name index walks and stops after five.
 */
async function findPeople(ctx: ServiceContext, text: string, scope: SQL | undefined): Promise<Person[]> {
  const lower = text.toLowerCase();
  const rank =
    text.length >= 3
      ? [
          sql`(lower(${users.email}) = ${lower} or lower(${users.username}) = ${lower}) desc`,
          sql`${users.fullName} ilike ${startsWithPattern(text)} desc`,
        ]
      : [];
  return ctx.db
    .select({ id: users.id, fullName: users.fullName, username: users.username, email: users.email })
    .from(users)
    .where(and(personMatch(text), scope))
    .orderBy(...rank, asc(users.fullName), asc(users.id))
    .limit(PER_KIND);
}

const personHit = (p: Person): TSearchHit => ({
  kind: 'user',
  id: p.id,
  title: p.fullName || p.username,
  subtitle: `${p.username} · ${p.email}`,
  url: `/users/${p.id}`,
});

/** The newest enrolments of the people found (they are already within the caller's scope). */
async function enrollmentsOf(ctx: ServiceContext, people: Person[]): Promise<TSearchHit[]> {
  if (!people.length) return [];
  const names = new Map(people.map((p) => [p.id, p.fullName || p.username]));
  const rows = await ctx.db
    .select({
      id: enrollments.id,
      userId: enrollments.userId,
      courseId: enrollments.courseId,
      courseName: sql<string>`coalesce(${courses.courseName}, ${enrollments.deletedCourseName}, 'Deleted course')`,
      status: enrollments.displayStatus,
    })
    .from(enrollments)
    .leftJoin(courses, eq(courses.id, enrollments.courseId))
    .where(inArray(enrollments.userId, [...names.keys()]))
    .orderBy(desc(enrollments.createdAt), asc(enrollments.id))
    .limit(PER_KIND);
  return rows.map((r) => ({
    kind: 'enrollment',
    id: r.id,
    title: r.courseName,
    subtitle: `${names.get(r.userId ?? '') ?? ''} · ${r.status}`,
    url: `/courses/${r.courseId ?? 'deleted'}/enrollment/${r.id}`,
  }));
}

/** The newest bookings of the people found. */
async function bookingsOf(ctx: ServiceContext, people: Person[]): Promise<TSearchHit[]> {
  if (!people.length) return [];
  const names = new Map(people.map((p) => [p.id, p.fullName || p.username]));
  const rows = await ctx.db
    .select({
      id: treatmentBookings.id,
      userId: treatmentBookings.userId,
      treatmentName: treatmentBookings.treatmentName,
      paymentStatus: treatmentBookings.paymentStatus,
      status: treatmentBookings.status,
    })
    .from(treatmentBookings)
    .where(inArray(treatmentBookings.userId, [...names.keys()]))
    .orderBy(desc(treatmentBookings.createdAt), asc(treatmentBookings.id))
    .limit(PER_KIND);
  return rows.map((r) => ({
    kind: 'booking',
    id: r.id,
    title: r.treatmentName,
    subtitle: `${names.get(r.userId ?? '') ?? ''} · ${r.status === 'cancelled' ? 'Cancelled' : PAYMENT_STATUS_LABELS[r.paymentStatus]}`,
    url: `/booking-details/${r.id}`,
  }));
}

/**
 * Receipts whose number starts with the text (receipt numbers are upper case): the whole number
 * finds that receipt, a start such as `GAL-2026` the newest receipts of that series.
 */
async function findReceipts(ctx: ServiceContext, text: string, scope: SQL | undefined): Promise<TSearchHit[]> {
  const rows = await ctx.db
    .select({
      id: payments.id,
      receiptNumber: payments.receiptNumber,
      payerName: payments.payerName,
      subject: payments.subject,
      status: payments.status,
    })
    .from(payments)
    .where(and(sql`${payments.receiptNumber} like ${startsWithPattern(text.toUpperCase())}`, scope))
    .orderBy(desc(payments.receiptNumber))
    .limit(PER_KIND);
  return rows.map((r) => ({
    kind: 'receipt',
    id: r.id,
    title: r.receiptNumber,
    subtitle: `${r.payerName} · ${r.subject}${r.status === 'void' ? ' · Void' : ''}`,
    url: `/payments?q=${enc(r.receiptNumber)}`,
  }));
}

/** Catalogue names containing the text, those starting with it first. */
function byName(name: AnyPgColumn, text: string) {
  return { where: ilikeContains(name, text), order: [sql`${name} ilike ${startsWithPattern(text)} desc`, asc(name)] };
}

async function findCourses(ctx: ServiceContext, text: string): Promise<TSearchHit[]> {
  const m = byName(courses.courseName, text);
  const rows = await ctx.db
    .select({ id: courses.id, name: courses.courseName, category: courses.category, duration: courses.duration })
    .from(courses)
    .where(m.where)
    .orderBy(...m.order, asc(courses.id))
    .limit(PER_KIND);
  return rows.map((r) => ({
    kind: 'course',
    id: r.id,
    title: r.name,
    subtitle: `${r.category} · ${r.duration}`,
    url: `/courses/${r.id}`,
  }));
}

async function findTreatments(ctx: ServiceContext, text: string): Promise<TSearchHit[]> {
  const m = byName(treatments.treatmentName, text);
  const rows = await ctx.db
    .select({ id: treatments.id, name: treatments.treatmentName, category: treatments.category })
    .from(treatments)
    .where(m.where)
    .orderBy(...m.order, asc(treatments.id))
    .limit(PER_KIND);
  // A treatment has no screen of its own: its hit opens the treatments list searched for its name.
  return rows.map((r) => ({
    kind: 'treatment',
    id: r.id,
    title: r.name,
    subtitle: r.category ? `Treatment · ${r.category}` : 'Treatment',
    url: `/treatment/all-treatment?q=${enc(r.name)}`,
  }));
}

/**
 * At most TOTAL hits: while there are more, the kind with the most hits gives up its last one, so
 * every kind that found something keeps a share.
 */
export function capTotal(byKind: Map<SearchKind, TSearchHit[]>, total = TOTAL): TSearchHit[] {
  const lists = SEARCH_KINDS.map((k) => [...(byKind.get(k) ?? [])]);
  let count = lists.reduce((n, l) => n + l.length, 0);
  while (count > total) {
    const longest = lists.reduce((a, b) => (b.length > a.length ? b : a));
    longest.pop();
    count--;
  }
  return lists.flat();
}

export async function globalSearch(ctx: ServiceContext, input: TGlobalSearchInput): Promise<TSearchAnswer> {
  const text = input.q;
  const scope = await branchScopeOf(ctx);
  const peopleAndRecords = findPeople(ctx, text, branchCondition(scope)).then(async (people) => {
    const [enrolled, booked] = await Promise.all([enrollmentsOf(ctx, people), bookingsOf(ctx, people)]);
    return { people: people.map(personHit), enrolled, booked };
  });
  const [{ people, enrolled, booked }, receipts, courseHits, treatmentHits] = await Promise.all([
    peopleAndRecords,
    findReceipts(ctx, text, branchCondition(scope, payments.branchId)),
    findCourses(ctx, text),
    findTreatments(ctx, text),
  ]);
  const byKind = new Map<SearchKind, TSearchHit[]>([
    ['user', people],
    ['receipt', receipts],
    ['enrollment', enrolled],
    ['booking', booked],
    ['course', courseHits],
    ['treatment', treatmentHits],
  ]);
  return { data: capTotal(byKind) };
}
