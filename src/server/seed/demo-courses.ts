import { count, eq, inArray } from 'drizzle-orm';
import { courses, enrollmentInstallments, enrollments, users } from '../db/schema';
import type { AppDeps } from '../deps';
import { createCourse } from '../domains/courses/courses.service';
import { addMonthsClamped } from '../domains/enrollments/dates';
import {
  completeEnrollment,
  createEnrollment,
  payAdmissionFee,
  payInstallment,
} from '../domains/enrollments/enrollments.service';

const DEMO_COURSES = [
  {
    courseName: 'Diploma in Nursing',
    duration: '12 months',
    totalFee: 240000,
    installments: 4,
    category: 'Health Care',
    admissionFee: 10000,
  },
  {
    courseName: 'Certificate in Yoga Instruction',
    duration: '3 months',
    totalFee: 45000,
    installments: 1,
    category: 'Wellness',
    admissionFee: 2500,
  },
  {
    courseName: 'Counselling Skills',
    duration: '6 months',
    totalFee: 100000,
    installments: 3,
    category: 'Psychology',
    admissionFee: 5000,
  },
  {
    courseName: 'Ayurveda Foundations',
    duration: '4 months',
    totalFee: 80000,
    installments: 2,
    category: 'Traditional Medicine',
    admissionFee: 0,
  },
  {
    courseName: 'Caregiver Training',
    duration: '8 weeks',
    totalFee: 35000.5,
    installments: 2,
    category: 'Health Care',
    admissionFee: 1500,
  },
];

/**
 * Courses and enrolments covering every display status, one with an overdue installment.
 * Uses the real services so demo rows obey the same rules as typed-in ones.
 */
export async function seedDemoCourses(deps: AppDeps) {
  const { db } = deps;
  const [existing] = await db.select({ n: count() }).from(courses);
  if ((existing?.n ?? 0) > 0) return;
  const ctx = { db, deps, actor: null };
  const made = [];
  for (const c of DEMO_COURSES) made.push(await createCourse(ctx, { ...c, currency: 'LKR' }));
  const [nursing, yoga, counselling, ayurveda] = made;
  if (!nursing || !yoga || !counselling || !ayurveda) throw new Error('The demo courses were not all created.');

  const emails = [
    'student1@example.com',
    'student2@example.com',
    'student3@example.com',
    'user1@example.com',
    'customer1@example.com',
  ];
  const found = await db.select({ email: users.email }).from(users).where(inArray(users.email, emails));
  if (found.length < emails.length) return;

  // Active (Partial) with an overdue installment: enrolled two months ago, paid the first part only.
  const partial = await createEnrollment(ctx, {
    email: 'student1@example.com',
    courseId: nursing._id,
    paymentType: 'installment',
  });
  await backdateMonths(deps, partial._id, 2);
  await payAdmissionFee(ctx, { id: partial._id, isPaid: true });
  await payInstallment(ctx, { id: partial._id, installmentIndex: 0, isPaid: true });

  // Pending Payment, also behind on its first installment.
  const pending = await createEnrollment(ctx, {
    email: 'customer1@example.com',
    courseId: ayurveda._id,
    paymentType: 'installment',
  });
  await backdateMonths(deps, pending._id, 1);
  await createEnrollment(ctx, { email: 'student2@example.com', courseId: yoga._id, paymentType: 'full' });

  // Active (Paid): everything paid, not yet marked completed.
  const paid = await createEnrollment(ctx, {
    email: 'student3@example.com',
    courseId: counselling._id,
    paymentType: 'installment',
  });
  await payAdmissionFee(ctx, { id: paid._id, isPaid: true });
  for (let i = 0; i < 3; i++) await payInstallment(ctx, { id: paid._id, installmentIndex: i, isPaid: true });

  // Completed.
  const done = await createEnrollment(ctx, { email: 'user1@example.com', courseId: yoga._id, paymentType: 'full' });
  await payAdmissionFee(ctx, { id: done._id, isPaid: true });
  await payInstallment(ctx, { id: done._id, installmentIndex: 0, isPaid: true });
  await completeEnrollment(ctx, done._id);
}

/** Moves an enrolment and its schedule back by whole months, as if it had been made then. */
async function backdateMonths({ db }: AppDeps, enrollmentId: string, months: number) {
  const [e] = await db
    .select({ enrolledOn: enrollments.enrolledOn })
    .from(enrollments)
    .where(eq(enrollments.id, enrollmentId));
  if (!e) return;
  const start = addMonthsClamped(e.enrolledOn, -months);
  await db.update(enrollments).set({ enrolledOn: start }).where(eq(enrollments.id, enrollmentId));
  const parts = await db
    .select({ id: enrollmentInstallments.id, seq: enrollmentInstallments.seq })
    .from(enrollmentInstallments)
    .where(eq(enrollmentInstallments.enrollmentId, enrollmentId));
  for (const p of parts)
    await db
      .update(enrollmentInstallments)
      .set({ dueDate: addMonthsClamped(start, p.seq) })
      .where(eq(enrollmentInstallments.id, p.id));
}
