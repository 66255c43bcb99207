import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';
import { AppError } from '../../errors';
import { fromMinor } from '../../../shared/money';
import { PAYMENT_METHOD_LABELS, type PaymentMethod } from '../../../shared/payment-kinds';
import { ADJUSTMENT_KIND_LABELS, type AdjustmentKind } from '../../../shared/adjustment-kinds';
import { todayIn } from '../../../shared/calendar';
import { assertUserInScope } from '../branch-scope';
import type { ServiceContext } from '../context';
import { assertId } from '../ids';
import { recordAudit } from '../audit/audit.service';
import { emailDelivery, queuedToOutbox } from '../../email/transport';
import { invalidateReads } from '../read-cache';
import { readLines, readTotals, type Bounds, type LineRow } from './statement-lines';
import { buildStatementPdf } from './statement-pdf';
import { statementHeader } from './statement-header';
import { planMessages, sendJobId } from '../messages/plan';
import { statementParagraphs } from '../../email/templates/statement';
import {
  STATEMENT_MAX_LINES,
  type TStatement,
  type TStatementLine,
  type TStatementQueued,
  type TStatementRange,
} from '@shared/schemas/statements';

export const USER_NOT_FOUND = 'User not found.';
export const TOO_LONG = `This statement has more than ${STATEMENT_MAX_LINES.toLocaleString('en-US')} lines. Please choose a shorter period.`;
export const BROUGHT_FORWARD = 'Balance brought forward';

const n = (v: string | number | null) => Number(v ?? 0);

/** What a line says (docs/users.md#statement): the item or payment, and what it was for. */
function describe(r: LineRow): string {
  const part = r.plan === 'installment' ? `Installment ${(r.seq ?? 0) + 1} of ${n(r.of)}` : null;
  switch (r.what) {
    case 'admission_fee':
      return `Admission fee: ${r.subject}`;
    case 'enrollment_installment':
      return `${part ?? 'Course fee'}: ${r.subject}`;
    case 'booking_installment':
      return `${part ?? 'Treatment fee'}: ${r.subject}${r.cancelled ? ' (booking cancelled; the part paid)' : ''}`;
    case 'payment': {
      const method = PAYMENT_METHOD_LABELS[r.method as PaymentMethod] ?? r.method ?? '';
      return `Payment, ${method}${r.reference ? ` (ref. ${r.reference})` : ''}: ${r.subject}`;
    }
    case 'void':
      return `Payment voided${r.reason ? ` (${r.reason})` : ''}: ${r.subject}`;
    case 'adjustment':
    case 'adjustment_revoked': {
      const kind = ADJUSTMENT_KIND_LABELS[r.method as AdjustmentKind] ?? r.method ?? '';
      const what = `${kind}${r.reference ? ` (${r.reference})` : ''}`;
      return r.what === 'adjustment'
        ? `${what}${r.reason ? `, ${r.reason}` : ''}: ${r.subject}`
        : `${what} revoked${r.reason ? ` (${r.reason})` : ''}: ${r.subject}`;
    }
    case 'refund': {
      const method = PAYMENT_METHOD_LABELS[r.method as PaymentMethod] ?? r.method ?? '';
      return `Refund, ${method}${r.reference ? ` (ref. ${r.reference})` : ''}${r.reason ? `, ${r.reason}` : ''}: ${r.subject}`;
    }
  }
}

/** The line's kind as the statement answers it. */
const KIND_OF: Record<LineRow['what'], TStatementLine['kind']> = {
  admission_fee: 'charge',
  enrollment_installment: 'charge',
  booking_installment: 'charge',
  payment: 'payment',
  void: 'void',
  adjustment: 'adjustment',
  adjustment_revoked: 'adjustment',
  refund: 'refund',
};

function toLine(r: LineRow): TStatementLine {
  return {
    date: r.day,
    kind: KIND_OF[r.what],
    description: describe(r),
    ...(r.receipt ? { receiptNumber: r.receipt } : {}),
    currency: r.currency,
    amount: fromMinor(n(r.minor)),
    balance: fromMinor(n(r.running)),
  };
}

/**
 * The statement of one person, read without the caller's checks: the service functions below
 * check them, and the e-mail job (which has no caller) renders what a check already allowed.
 * One read-only snapshot, so the lines and the totals always agree.
 */
export async function loadStatement(
  deps: { db: Db; config: { TIME_ZONE: string } },
  userId: string,
  range: Bounds,
): Promise<TStatement | null> {
  const tz = deps.config.TIME_ZONE;
  const today = todayIn(tz);
  return deps.db.transaction(
    async (tx) => {
      const [person] = await tx
        .select({ _id: users.id, fullName: users.fullName, email: users.email })
        .from(users)
        .where(eq(users.id, userId))
        .limit(1);
      if (!person) return null;
      const rows = await readLines(tx, userId, tz, range, STATEMENT_MAX_LINES + 1);
      if (rows.length > STATEMENT_MAX_LINES) throw new AppError('BAD_REQUEST', TOO_LONG);
      const totals = await readTotals(tx, userId, tz, range, today);
      // The balance brought forward opens the period in each currency that has lines before it.
      const forward: TStatementLine[] = range.from
        ? totals
            .filter((t) => n(t.before_n) > 0)
            .map((t) => ({
              date: range.from!,
              kind: 'charge' as const,
              description: BROUGHT_FORWARD,
              currency: t.currency,
              amount: fromMinor(n(t.opening)),
              balance: fromMinor(n(t.opening)),
            }))
        : [];
      return {
        person,
        totals: totals
          .filter((t) => n(t.upto_n) > 0 || n(t.overdue) > 0)
          .map((t) => ({
            currency: t.currency,
            charged: fromMinor(n(t.charged)),
            paid: fromMinor(n(t.paid)),
            balance: fromMinor(n(t.balance)),
            overdue: fromMinor(n(t.overdue)),
          })),
        lines: [...forward, ...rows.map(toLine)],
      };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}

/** A person the caller may see: a limited manager sees only people of their branch (404 otherwise). */
async function checkedPerson(ctx: ServiceContext, userId: string) {
  assertId(userId, 'User');
  await assertUserInScope(ctx, userId, USER_NOT_FOUND);
}

/** GET /api/users/{id}/statement and `statements.get` (docs/users.md#statement). */
export async function getStatement(ctx: ServiceContext, input: TStatementRange & { userId: string }) {
  await checkedPerson(ctx, input.userId);
  const statement = await loadStatement(ctx.deps, input.userId, { from: input.from, to: input.to });
  if (!statement) throw new AppError('NOT_FOUND', USER_NOT_FOUND);
  return statement;
}

/** The statement as a printable A4 PDF with the organisation's header. */
export async function statementPdf(
  ctx: ServiceContext,
  input: TStatementRange & { userId: string },
): Promise<{ fileName: string; pdf: Buffer }> {
  const statement = await getStatement(ctx, input);
  const tz = ctx.deps.config.TIME_ZONE;
  const header = await statementHeader(ctx.deps);
  const pdf = buildStatementPdf(statement, { header, range: input, today: todayIn(tz) });
  await recordStatementEvent(ctx.db, ctx, statement, input, { kind: 'download' });
  invalidateReads(ctx.deps);
  const who = statement.person.fullName.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'person';
  return { fileName: `statement-${who}-${todayIn(tz)}.pdf`, pdf };
}

/** The period as the e-mail job's `ref`: the job carries ids and dates, never the statement itself. */
export const rangeRef = (r: Bounds) => `${r.from ?? ''}..${r.to ?? ''}`;
export function rangeOfRef(ref: string | undefined): Bounds {
  const [from, to] = (ref ?? '..').split('..');
  return { ...(from ? { from } : {}), ...(to ? { to } : {}) };
}

/**
 * Plans the statement e-mail to the person as the `statement` message (docs/messages.md), sent by
 * the job worker; answers 202 with the send job's id.
 */
export async function emailStatement(
  ctx: ServiceContext,
  input: TStatementRange & { userId: string },
): Promise<TStatementQueued> {
  // The same checks and the same refusals (404, 400 for too long) as reading it.
  const statement = await getStatement(ctx, input);
  // The message (its log row and send job) and the audit entry are one transaction, as a
  // receipt's are: a queued e-mail is always recorded, and one that failed to queue never is.
  // Asked for, so opt-outs and switches do not apply; each request is its own occasion.
  const planned = await ctx.db.transaction(async (tx) => {
    const [row] = await planMessages(tx, ctx.deps, {
      event: 'statement',
      recipientId: input.userId,
      entityType: 'user',
      entityId: input.userId,
      occasion: randomUUID(),
      sendAt: new Date(),
      vars: {},
      requested: true,
      channels: ['email'],
      appendix: statementParagraphs(statement, input).join('\n\n'),
    });
    await recordStatementEvent(tx, ctx, statement, input, { kind: 'email', to: statement.person.email });
    return row;
  });
  if (!planned) throw new AppError('NOT_FOUND', USER_NOT_FOUND);
  const job = { id: sendJobId(planned.id, planned.sendAt) };
  invalidateReads(ctx.deps);
  void ctx.deps.jobs.flush?.();
  const delivery = emailDelivery(ctx.deps.config);
  const message =
    delivery === 'email'
      ? `The statement will be e-mailed to ${statement.person.email}.`
      : queuedToOutbox(`The statement for ${statement.person.email}`);
  return { message, jobId: job.id, delivery };
}

/**
 * A statement downloaded as PDF or queued to the person's e-mail (docs/audit.md): an event that
 * changes no record, on the person's id, naming the period.
 */
async function recordStatementEvent(
  db: Db,
  ctx: ServiceContext,
  statement: TStatement,
  range: Bounds,
  event: { kind: 'download' } | { kind: 'email'; to: string },
) {
  const period = range.from || range.to ? ` for ${range.from ?? 'the start'} to ${range.to ?? 'today'}` : '';
  await recordAudit(db, ctx, {
    action: event.kind,
    entityType: 'statement',
    entityId: statement.person._id,
    summary:
      event.kind === 'download'
        ? `Downloaded the statement of ${statement.person.fullName}${period}`
        : `E-mailed the statement of ${statement.person.fullName}${period} to ${event.to}`,
    changes: [
      { field: 'from', before: null, after: range.from ?? null },
      { field: 'to', before: null, after: range.to ?? null },
      ...(event.kind === 'email' ? [{ field: 'email', before: null, after: event.to }] : []),
    ],
  });
}
