import { eq } from 'drizzle-orm';
import { batches, branches, classSessions, courses, payments, users } from '../../db/schema';
import { AppError } from '../../errors';
import type { MessageEvent } from '@shared/schemas/messages';
import type { ServiceContext } from '../context';
import { isUuid } from '../ids';
import { appointmentMessageFacts, classVars, paymentVars, when } from './hooks';
import type { TemplateVars } from './templates';

/** What the preview shows without a record: plainly made-up values for every placeholder. */
export const SAMPLE_VARS: TemplateVars = {
  name: 'Nimal Perera',
  date: '05 Jan 2027',
  time: '10:30',
  oldDate: '04 Jan 2027',
  oldTime: '09:00',
  branch: 'Main branch',
  treatment: 'Speech therapy',
  course: 'Counselling diploma',
  amount: 'LKR 5,000.00',
  dueDate: '10 Jan 2027',
  receiptNumber: 'MAIN-2027-000001',
};

const NOT_FOUND = 'No record with this id was found for the preview.';

/**
 * The placeholders filled from a real record: the appointment of an appointment event, the class
 * session of a class event, the payment of payment_received, the person of anything else.
 * Placeholders the record has nothing for keep their sample value.
 */
export async function previewVars(ctx: ServiceContext, event: MessageEvent, entityId?: string): Promise<TemplateVars> {
  if (!entityId) return SAMPLE_VARS;
  if (!isUuid(entityId)) throw new AppError('NOT_FOUND', NOT_FOUND);
  const db = ctx.db;
  if (event.startsWith('appointment_')) {
    const a = await appointmentMessageFacts(db, entityId);
    if (!a) throw new AppError('NOT_FOUND', NOT_FOUND);
    return {
      ...SAMPLE_VARS,
      ...when(ctx.deps, a.startAt),
      branch: a.branch,
      treatment: a.treatment,
      name: a.name ?? SAMPLE_VARS.name,
    };
  }
  if (event === 'class_cancelled' || event === 'class_moved' || event === 'absence') {
    const [s] = await db
      .select({ startAt: classSessions.startAt, course: courses.courseName, branch: branches.name })
      .from(classSessions)
      .innerJoin(batches, eq(batches.id, classSessions.batchId))
      .leftJoin(courses, eq(courses.id, batches.courseId))
      .leftJoin(branches, eq(branches.id, batches.branchId))
      .where(eq(classSessions.id, entityId))
      .limit(1);
    if (!s) throw new AppError('NOT_FOUND', NOT_FOUND);
    return { ...SAMPLE_VARS, ...classVars(ctx.deps, s) };
  }
  if (event === 'payment_received') {
    const [p] = await db.select().from(payments).where(eq(payments.id, entityId)).limit(1);
    if (!p) throw new AppError('NOT_FOUND', NOT_FOUND);
    return { ...SAMPLE_VARS, ...paymentVars(ctx.deps, p), name: p.payerName };
  }
  const [u] = await db.select({ name: users.fullName }).from(users).where(eq(users.id, entityId)).limit(1);
  if (!u) throw new AppError('NOT_FOUND', NOT_FOUND);
  return { ...SAMPLE_VARS, name: u.name };
}
