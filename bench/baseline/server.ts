/**
 * The baseline of `npm run bench:http`: what the measured paths cost with nothing but Fastify and
 * postgres.js. Same statements as the product (bench/baseline/sql.ts), same JSON answers, the same
 * sign-in check (Bearer token looked up in `sessions`, remembered for SESSION_CACHE_SECONDS like
 * the product does), the same role checks, the same reuse of the enrolment statistics and the
 * lists' totals (DASHBOARD_CACHE_SECONDS); no ORM, no tRPC, no validation library, no logging.
 * Only the requests the benchmark sends are implemented; anything else answers 404.
 *
 * Environment: DATABASE_URL, PORT, TIME_ZONE (default Asia/Colombo), SESSION_CACHE_SECONDS (5),
 * DASHBOARD_CACHE_SECONDS (30).
 */
import { createHash } from 'node:crypto';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import postgres from 'postgres';
import { LedgerError, pgTimestamp, runIn, toggleInstallment, UNNAMED, type LedgerActor } from './ledger';
import * as q from './sql';

const TIME_ZONE = process.env.TIME_ZONE ?? 'Asia/Colombo';
const CACHE_MS = Number(process.env.SESSION_CACHE_SECONDS ?? 5) * 1000;
const STATS_MS = Number(process.env.DASHBOARD_CACHE_SECONDS ?? 30) * 1000;
const IDLE_MS = 12 * 3600_000;
const MAX_MS = 7 * 86400_000;
const STAFF = new Set(['manager', 'admin', 'superadmin']);
const ADMIN = new Set(['admin', 'superadmin']);

// Like the product: ten connections, JIT off, dates as strings, timestamps as Date.
const sql = postgres(process.env.DATABASE_URL!, {
  max: 10,
  onnotice: () => {},
  connection: { jit: 'off' },
  types: { date: { to: 1082, from: [1082], serialize: (x: string) => x, parse: (x: string) => x } },
});
// Like the product's ORM: json parameters arrive as text and are passed through.
for (const oid of ['114', '3802']) (sql.options.serializers as Record<string, (x: unknown) => unknown>)[oid] = (x) => x;

type Row = unknown[];
// Unnamed statements, as the product runs them (UNNAMED in ./ledger).
const values = (text: string, params: unknown[] = []) =>
  sql.unsafe(text, params as postgres.ParameterOrJSON<never>[], UNNAMED).values() as unknown as Promise<Row[]>;
// Named statements where the product prepares its read (src/server/db/prepared.ts).
const namedValues = (text: string, params: unknown[] = []) =>
  sql.unsafe(text, params as postgres.ParameterOrJSON<never>[], { prepare: true }).values() as unknown as Promise<
    Row[]
  >;

const iso = (d: unknown) => (d instanceof Date ? d.toISOString() : null);
const money = (minor: unknown) => Number(minor) / 100;
/** One formatter for the process, as the product keeps one per time zone. */
const dayFormat = new Intl.DateTimeFormat('en-CA', {
  timeZone: TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});
const today = () => dayFormat.format(new Date());

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}
const notFound = (what: string) => new HttpError(404, `${what} not found.`, 'NOT_FOUND');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// ------------------------------------------------------------------------------------- sign-in

type Actor = LedgerActor;
const sessions = new Map<string, { actor: Actor; until: number }>();

async function actorOf(req: FastifyRequest): Promise<Actor | null> {
  const m = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
  const token = m?.[1];
  if (!token || !/^[a-z2-7]{32}$/.test(token)) return null;
  const id = createHash('sha256').update(token).digest('hex');
  const now = Date.now();
  const hit = sessions.get(id);
  if (hit && hit.until > now) return hit.actor;
  const [row] = await values(q.SESSION, [id, 1]);
  if (!row) return null;
  const [, , createdAt, lastUsedAt, expiresAt, userId, role, , username, fullName, branchId] = row as [
    string,
    string,
    Date,
    Date,
    Date,
    string,
    string,
    string,
    string,
    string,
    string | null,
  ];
  if (expiresAt.getTime() <= now) {
    await values(q.SESSION_DELETE, [id]);
    return null;
  }
  if (now - lastUsedAt.getTime() > 60_000) {
    const expires = new Date(Math.min(now + IDLE_MS, createdAt.getTime() + MAX_MS));
    await values(q.SESSION_TOUCH, [pgTimestamp(new Date(now)), pgTimestamp(expires), id]);
  }
  const actor = { id: userId, role, username, fullName, branchId };
  if (CACHE_MS > 0) sessions.set(id, { actor, until: Math.min(now + CACHE_MS, expiresAt.getTime()) });
  return actor;
}

async function requireRole(req: FastifyRequest, roles: Set<string>) {
  const actor = await actorOf(req);
  if (!actor) throw new HttpError(401, 'You must be signed in.', 'UNAUTHORIZED');
  if (!roles.has(actor.role)) throw new HttpError(403, 'You do not have permission to access this page.', 'FORBIDDEN');
  return actor;
}

// ------------------------------------------------------------------------------------- answers

/** The columns of USER_COLUMNS, in order. */
function userDto(r: Row) {
  const [id, username, fullName, email, role, phone, address, nic, dateOfBirth, gender] = r;
  const [
    contactName,
    contactRelation,
    contactPhone,
    guardianPhone,
    imageFileId,
    createdAt,
    updatedAt,
    bId,
    bName,
    bLoc,
  ] = r.slice(10);
  return {
    _id: id,
    username,
    fullName,
    email,
    role,
    branch: bId ? { _id: bId, name: bName ?? '', location: bLoc ?? '' } : null,
    phone,
    address,
    nic,
    dateOfBirth,
    gender,
    // As the product: a contact without a name or a phone is no contact.
    emergencyContact:
      contactName && contactPhone ? { name: contactName, relation: contactRelation, phone: contactPhone } : null,
    // As the product: only when recorded.
    ...(guardianPhone ? { guardianPhone } : {}),
    image: imageFileId ? `/api/files/${imageFileId as string}` : null,
    createdAt: iso(createdAt),
    updatedAt: iso(updatedAt),
  };
}

/** One child of the row's JSON array: id, seq, amount_minor, due_date, amount_paid_minor, is_paid, paid_at (ms). */
type Installment = [string, number, number, string, number, boolean, number | null];

const instant = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

function installmentDto(i: Installment, todayIso: string) {
  const [id, , amount, dueDate, amountPaid, isPaid, paidAt] = i;
  return {
    _id: id,
    amount: money(amount),
    dueDate,
    isPaid,
    paidAt: instant(paidAt),
    isOverdue: !isPaid && dueDate < todayIso,
    amountPaid: money(amountPaid),
  };
}

/** The columns of ENROLLMENT_COLUMNS, in order; the last is the instalments. */
function enrollmentDto(r: Row, todayIso: string) {
  const installments = r[26] as Installment[];
  const [id, , , paymentType, totalFee, admissionFee, currency, admissionFeePaid, admissionFeeAmountPaid] = r as [
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    boolean,
    string,
  ];
  // Column 12 is the stored display status, which the answer derives from the instalments instead.
  const [admissionFeePaidAt, stored, completedAt, , enrolledOn, deletedUsername, deletedEmail, deletedCourseName] =
    r.slice(9);
  const [createdAt, updatedAt, userId, username, email, fullName, courseId, courseName, courseFee] = r.slice(17);
  const status = stored === 'completed' ? 'Completed' : 'Active';
  const admission = Number(admissionFee);
  // What the ledger holds, partial payments included.
  let paid = Number(admissionFeeAmountPaid);
  // What the items are owed now (a discount lowers an instalment), not the fee sold.
  let due = admission;
  let allPaid = true;
  let anyPaid = false;
  for (const i of installments) {
    paid += i[4];
    due += i[2];
    if (i[5] || i[4] > 0) anyPaid = true;
    if (!i[5]) allPaid = false;
  }
  const fullyPaid = (admissionFeePaid || admission === 0) && allPaid;
  const displayStatus = fullyPaid
    ? status === 'Completed'
      ? 'Completed'
      : 'Active (Paid)'
    : admissionFeePaid || Number(admissionFeeAmountPaid) > 0 || anyPaid
      ? 'Active (Partial)'
      : 'Pending Payment';
  return {
    _id: id,
    userId: userId ? { _id: userId, username, email, fullName } : null,
    courseId: courseId ? { _id: courseId, courseName, totalFee: money(courseFee) } : null,
    paymentType,
    admissionFeePaid,
    admissionFeePaidAt: iso(admissionFeePaidAt),
    admissionFee: money(admission),
    admissionFeeAmountPaid: money(admissionFeeAmountPaid),
    totalFee: money(totalFee),
    currency,
    status,
    displayStatus,
    installments: installments.map((i) => installmentDto(i, todayIso)),
    paidAmount: money(paid),
    outstandingAmount: money(due - paid),
    enrolledOn,
    completedAt: iso(completedAt),
    deletedUsername,
    deletedEmail,
    deletedCourseName,
    createdAt: iso(createdAt),
    updatedAt: iso(updatedAt),
  };
}

async function enrollmentById(id: string) {
  const [row] = await namedValues(q.ENROLLMENT_BY_ID, [id, 1]);
  if (!row) throw notFound('Enrollment');
  return enrollmentDto(row, today());
}

/** session_number, note, date (ms) */
type Note = [number, string, number | null];

/** The columns of a booking page, in order; the last two are the instalments and the notes. */
function bookingDto(r: Row, todayIso: string) {
  const [id, userId, treatmentId, treatmentName, maxSessions, deletedUsername, deletedEmail, userType, paymentType] = r;
  const [, price, currency, periodStart, periodEnd, sessionsCompleted, status, cancelledAt, bookedOn] = r.slice(9);
  const [createdAt, updatedAt, username, email, fullName, liveTreatmentName, effectiveStatus] = r.slice(18);
  const [installments, notes] = r.slice(25) as [Installment[], Note[]];
  return {
    _id: id,
    userId: userId ? { _id: userId, username: username ?? '', email: email ?? '', fullName: fullName ?? '' } : null,
    deletedUsername,
    deletedEmail,
    treatmentId: { _id: treatmentId, treatmentName: liveTreatmentName ?? treatmentName, maxSessions },
    userType,
    paymentType,
    paymentStatus: effectiveStatus,
    price: money(price),
    currency,
    treatmentPeriod: periodStart ? { startDate: periodStart, endDate: periodEnd ?? periodStart } : null,
    sessionsCompleted,
    sessionNotes: notes.map((n) => ({ sessionNumber: n[0], note: n[1], date: instant(n[2]) })),
    installments: installments.map((i) => installmentDto(i, todayIso)),
    status,
    cancelledAt: iso(cancelledAt),
    bookedOn,
    createdAt: iso(createdAt),
    updatedAt: iso(updatedAt),
  };
}

// ------------------------------------------------------------------------------------- input

/** The one call of a `?batch=1` tRPC GET, as the product's client sends it. */
function trpcInput(req: FastifyRequest): Record<string, unknown> {
  const { batch, input } = req.query as { batch?: string; input?: string };
  if (batch !== '1' || !input) throw new HttpError(400, 'Only single-call batches are served here.', 'BAD_REQUEST');
  let parsed: unknown;
  try {
    parsed = JSON.parse(input);
  } catch {
    throw new HttpError(400, 'Invalid input.', 'BAD_REQUEST');
  }
  const call = (parsed as Record<string, unknown> | null)?.['0'];
  if (!call || typeof call !== 'object') throw new HttpError(400, 'Invalid input.', 'BAD_REQUEST');
  return call as Record<string, unknown>;
}

function paging(input: Record<string, unknown>, allowed: string[]) {
  for (const k of Object.keys(input)) {
    if (!['page', 'pageSize', ...allowed].includes(k))
      throw new HttpError(400, `The baseline does not serve "${k}".`, 'BAD_REQUEST');
  }
  const page = input.page ?? 1;
  const pageSize = input.pageSize ?? 25;
  if (!Number.isInteger(page) || (page as number) < 1 || (page as number) > 100_000)
    throw new HttpError(400, 'Page must be a whole number.', 'BAD_REQUEST');
  if (!Number.isInteger(pageSize) || (pageSize as number) < 1 || (pageSize as number) > 200)
    throw new HttpError(400, 'Rows per page must be between 1 and 200.', 'BAD_REQUEST');
  return { page: page as number, pageSize: pageSize as number, offset: ((page as number) - 1) * (pageSize as number) };
}

const trpcAnswer = (data: unknown) => [{ result: { data } }];

/** The keyset cursor a full page answers (docs/performance.md#keyset-paging): its order and last row's id. */
const nextCursor = (rows: Row[], pageSize: number, order = 'createdAt:desc') =>
  rows.length === pageSize ? `${order}~${rows[rows.length - 1]![0] as string}` : null;

// ------------------------------------------------------------------------------------- routes

const app = Fastify({ logger: false });

// As the product (docs/performance.md#reused-reads): the statistics (one answer per day) and the
// lists' totals (per filter; the benchmark's lists come from one superadmin) are reused for STATS_MS,
// and forgotten when this server handles a write.
let statistics: { day: string; at: number; value: Promise<Record<string, number>> } | null = null;
const totals = new Map<string, { at: number; value: Promise<Row[]> }>();
const forgetReads = async (req: FastifyRequest) => {
  if (['GET', 'HEAD', 'OPTIONS'].includes(req.method)) return;
  statistics = null;
  totals.clear();
};
app.addHook('onRequest', forgetReads);
app.addHook('onSend', async (req, _reply, payload) => {
  await forgetReads(req);
  return payload;
});
/** A list's count, run once per key while it may be reused. */
function reusedCount(key: string, count: () => Promise<Row[]>): Promise<Row[]> {
  const hit = totals.get(key);
  if (hit && Date.now() - hit.at < STATS_MS) return hit.value;
  const value = count();
  const entry = { at: Date.now(), value };
  totals.set(key, entry);
  value.catch(() => {
    if (totals.get(key) === entry) totals.delete(key);
  });
  return value;
}

app.setErrorHandler((err: Error, _req: FastifyRequest, reply: FastifyReply) => {
  if (err instanceof HttpError || err instanceof LedgerError)
    return reply.status(err.status).send({ message: err.message, code: err.code });
  console.error(err);
  return reply.status(500).send({ message: 'Something went wrong. Please try again.', code: 'INTERNAL' });
});

app.get('/api/health', async () => ({ status: 'ok' }));

app.get('/api/users', async (req) => {
  await requireRole(req, STAFF);
  return (await values(q.USERS_ALL, [10_000])).map(userDto);
});

app.get('/trpc/users.list', async (req) => {
  await requireRole(req, STAFF);
  const { page, pageSize, offset } = paging(trpcInput(req), []);
  const [rows, [count]] = await Promise.all([
    namedValues(q.USERS_PAGE, [pageSize, offset]),
    reusedCount('users', () => values(q.USERS_COUNT)),
  ]);
  return trpcAnswer({
    items: rows.map(userDto),
    total: Number(count![0]),
    page,
    pageSize,
    nextCursor: nextCursor(rows, pageSize),
  });
});

app.get('/trpc/enrollments.list', async (req) => {
  await requireRole(req, STAFF);
  const input = trpcInput(req);
  const { page, pageSize, offset } = paging(input, ['displayStatus']);
  const todayIso = today();
  let rows: Row[];
  let count: Row[];
  if (input.displayStatus === undefined) {
    [rows, count] = await Promise.all([
      namedValues(q.ENROLLMENTS_PAGE, [pageSize, offset]),
      reusedCount('enrollments', () => values(q.ENROLLMENTS_COUNT)),
    ]);
  } else if (input.displayStatus === 'Pending Payment') {
    const status = input.displayStatus;
    [rows, count] = await Promise.all([
      namedValues(q.ENROLLMENTS_BY_STATUS_PAGE, [status, pageSize, offset]),
      reusedCount('enrollments pending', () => values(q.ENROLLMENTS_BY_STATUS_COUNT, [status])),
    ]);
  } else {
    throw new HttpError(400, 'The baseline serves the Pending Payment filter only.', 'BAD_REQUEST');
  }
  return trpcAnswer({
    items: rows.map((r) => enrollmentDto(r, todayIso)),
    total: Number(count[0]![0]),
    page,
    pageSize,
    nextCursor: nextCursor(rows, pageSize),
  });
});

app.get('/trpc/bookings.list', async (req) => {
  await requireRole(req, STAFF);
  const input = trpcInput(req);
  const { page, pageSize, offset } = paging(input, ['paymentStatus']);
  const status = input.paymentStatus;
  if (typeof status !== 'string') throw new HttpError(400, 'The baseline serves status filters only.', 'BAD_REQUEST');
  const t = today();
  const [rows, [count]] = await Promise.all([
    namedValues(q.BOOKINGS_BY_STATUS_PAGE, [t, t, status, pageSize, offset]),
    reusedCount(`bookings ${t} ${status}`, () => values(q.BOOKINGS_BY_STATUS_COUNT, [t, status])),
  ]);
  const items = rows.map((r) => bookingDto(r, t));
  return trpcAnswer({ items, total: Number(count![0]), page, pageSize, nextCursor: nextCursor(rows, pageSize) });
});

app.get('/api/enrollments/statistics', async (req) => {
  await requireRole(req, STAFF);
  const day = today();
  if (statistics && statistics.day === day && Date.now() - statistics.at < STATS_MS) return statistics.value;
  const value = values(q.ENROLLMENT_STATISTICS, [day]).then(([row]) => ({
    totalEnrollments: Number(row![0]),
    completedEnrollments: Number(row![1]),
    overdueInstallments: Number(row![2]),
  }));
  const entry = (statistics = { day, at: Date.now(), value });
  value.catch(() => {
    if (statistics === entry) statistics = null;
  });
  return value;
});

app.get('/api/enrollments/:id', async (req) => {
  await requireRole(req, STAFF);
  const { id } = req.params as { id: string };
  if (!UUID.test(id)) throw notFound('Enrollment');
  return enrollmentById(id);
});

app.post('/api/enrollments/:id/pay-installment', async (req) => {
  const actor = await requireRole(req, ADMIN);
  const { id } = req.params as { id: string };
  const body = (req.body ?? {}) as { installmentIndex?: unknown; isPaid?: unknown };
  if (!Number.isInteger(body.installmentIndex) || typeof body.isPaid !== 'boolean')
    throw new HttpError(400, 'Send installmentIndex with isPaid.', 'BAD_REQUEST');
  if (!UUID.test(id)) throw notFound('Enrollment');
  const ua = req.headers['user-agent'];
  const meta = {
    ip: req.ip,
    userAgent: typeof ua === 'string' && ua ? ua.slice(0, 512) : null,
    requestId: String(req.id),
  };
  const input = { id, installmentIndex: body.installmentIndex as number, isPaid: body.isPaid };
  await sql.begin((tx) => toggleInstallment(runIn(tx), input, actor, meta, today()));
  return enrollmentById(id);
});

await app.listen({ port: Number(process.env.PORT ?? 3100), host: '127.0.0.1' });

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    void app
      .close()
      .then(() => sql.end({ timeout: 5 }))
      .then(() => process.exit(0));
  });
}
