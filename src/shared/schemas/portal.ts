import { z } from 'zod';
import { DISPLAY_STATUSES } from '@shared/enrollment-status';
import { APPOINTMENT_STATUS_VALUES, WEEKDAYS } from '@shared/schemas/appointments';
import { ZInstallment } from '@shared/schemas/installments.output';
import { zCountOut, zDayOut, zInstantOut, zIntOut, zMoneyOut } from '@shared/schemas/output';
import { zPhone } from '@shared/schemas/person';
import { blankToUndefined, parseDay, zId, zInstant, zText } from '@shared/schemas/primitives';
import { ZEmail, ZPassword } from '@shared/schemas/users';
import { ZSignedIn } from '@shared/schemas/auth.output';

/*
 * The portal's contract (docs/portal.md): what a signed-in person sees and may do about themselves.
 * Every answer is built from the session's person; no input names a person, and a person id sent
 * anyway is dropped by these schemas (zod objects strip unknown keys).
 *
 * tRPC router `portal` (every procedure: any signed-in person, about themselves):
 *   portal.me                 query    → ZPortalMe
 *   portal.home               query    → ZPortalHome
 *   portal.enrollments        query    → ZPortalEnrollmentList
 *   portal.enrollment         query    { id }                      → ZPortalEnrollment
 *   portal.bookings           query    → ZPortalBookingList
 *   portal.booking            query    { id }                      → ZPortalBooking
 *   portal.appointments       query    { from?, to? }              → ZPortalAppointmentList
 *   portal.payments           query    → ZPortalPaymentList
 *   portal.howToPay           query    → ZPortalHowToPay
 *   portal.profile            query    → ZPortalProfile
 *   portal.saveProfile        mutation ZPortalProfileInput         → ZPortalProfile
 *   portal.cancelAppointment  mutation { id, reason? }             → ZPortalAppointment
 *   portal.availability       query    { bookingId, from, to }     → ZPortalAvailability
 *   portal.bookAppointment    mutation { bookingId, start, practitionerId? } → ZPortalAppointment
 *   portal.moveAppointment    mutation { id, start, practitionerId? }        → ZPortalAppointment
 *   portal.settings           query    → ZPortalSettings (what the screens need: selfBooking, cut-offs)
 * Staff side: `settings.getPortal` query / `settings.updatePortal` mutation (admins write), and
 * `users.invite` mutation { id } (staff) → ZInviteSent.
 *
 * REST (same rules, same answers):
 *   GET  /api/portal/me | /home | /enrollments | /enrollments/{id} | /bookings | /bookings/{id}
 *   GET  /api/portal/appointments?from&to | /payments | /profile | /how-to-pay | /settings
 *   GET  /api/portal/availability?bookingId&from&to
 *   GET  /api/portal/payments/{id}/receipt     → application/pdf (the receipt staff print)
 *   GET  /api/portal/statement/pdf?from&to     → application/pdf (the person's account statement)
 *   POST /api/portal/appointments/{id}/cancel  { reason? }
 *   POST /api/portal/appointments              { bookingId, start, practitionerId? }
 *   PUT  /api/portal/appointments/{id}         { start, practitionerId? }
 *   PUT  /api/portal/profile                   ZPortalProfileInput
 *   POST /api/portal/code                      { email }        → ZPortalCodeSent (always the same)
 *   POST /api/portal/code/verify               { email, code }  → ZSignedIn (as /api/users/auth)
 *   POST /api/portal/invitation/accept         { token, password } → ZSignedIn
 *   POST /api/users/{id}/invite                (staff)          → ZInviteSent
 *   GET|PUT /api/settings/portal               (staff read, admins write) ZPortalSettings
 */

/** The receipt PDF of one of the person's payments. */
export const portalReceiptPath = (paymentId: string) => `/api/portal/payments/${encodeURIComponent(paymentId)}/receipt`;
/** The person's account statement PDF; `from`/`to` are optional days. */
export const PORTAL_STATEMENT_PDF_PATH = '/api/portal/statement/pdf';

export const PORTAL_LANGUAGES = ['en', 'si', 'ta'] as const;
export type PortalLanguage = (typeof PORTAL_LANGUAGES)[number];

// ------------------------------------------------------------------ settings

export const PORTAL_SETTINGS_DEFAULTS = { selfBooking: false, cancelHours: 24, minNoticeHours: 12, maxDaysAhead: 30 };

const hours = (label: string, max: number) =>
  z
    .number({ error: `${label} must be a whole number of hours.` })
    .int(`${label} must be a whole number of hours.`)
    .min(0, `${label} cannot be negative.`)
    .max(max, `${label} must be at most ${max}.`);

/** Settings → Portal (GET|PUT /api/settings/portal). */
export const ZPortalSettingsInput = z.object({
  selfBooking: z.boolean({ error: 'Choose whether people may book appointments themselves.' }),
  cancelHours: hours('Cancel hours', 720),
  minNoticeHours: hours('Minimum notice hours', 720),
  maxDaysAhead: z
    .number({ error: 'Days ahead must be a whole number of days.' })
    .int('Days ahead must be a whole number of days.')
    .min(1, 'Days ahead must be at least 1.')
    .max(365, 'Days ahead must be at most 365.'),
});
export type TPortalSettingsInput = z.infer<typeof ZPortalSettingsInput>;
export const ZPortalSettings = ZPortalSettingsInput;
export type TPortalSettings = z.infer<typeof ZPortalSettings>;

// ------------------------------------------------------------------ inputs

export const ZPortalIdInput = z.object({ id: zId('Id') });

const zDayOpt = (label: string) =>
  z.preprocess(
    blankToUndefined,
    zText(label)
      .refine((s) => parseDay(s) !== null, `${label} must be a date (YYYY-MM-DD) between 1900 and 2100.`)
      .optional(),
  );

/** The appointments list: days in TIME_ZONE, both optional (default: from today, no end). */
export const ZPortalAppointmentsInput = z
  .object({ from: zDayOpt('From'), to: zDayOpt('To') })
  .refine((r) => !r.from || !r.to || r.from <= r.to, { message: 'From must be on or before To.', path: ['to'] });
export type TPortalAppointmentsInput = z.infer<typeof ZPortalAppointmentsInput>;

export const ZPortalStatementInput = ZPortalAppointmentsInput;

const reason = z.preprocess(
  blankToUndefined,
  zText('Reason', { multiline: true }).trim().max(500, 'Reason must be at most 500 characters.').optional(),
);
export const ZPortalCancelBody = z.object({ reason });
export const ZPortalCancelInput = ZPortalCancelBody.extend({ id: zId('Appointment') });
export type TPortalCancelInput = z.infer<typeof ZPortalCancelInput>;

const zStart = zInstant('Start').refine((s) => new Date(s).getUTCSeconds() === 0, 'Start must be on a whole minute.');
const zPractitioner = z.preprocess(blankToUndefined, zId('Practitioner').optional());

export const ZPortalAvailabilityInput = z.object({
  bookingId: zId('Booking'),
  from: zText('From', { message: 'From is required.' }).refine((s) => parseDay(s) !== null, 'From must be a date.'),
  to: zText('To', { message: 'To is required.' }).refine((s) => parseDay(s) !== null, 'To must be a date.'),
});
export type TPortalAvailabilityInput = z.infer<typeof ZPortalAvailabilityInput>;

export const ZPortalBookBody = z.object({ bookingId: zId('Booking'), start: zStart, practitionerId: zPractitioner });
export type TPortalBookInput = z.infer<typeof ZPortalBookBody>;
export const ZPortalMoveBody = z.object({ start: zStart, practitionerId: zPractitioner });
export const ZPortalMoveInput = ZPortalMoveBody.extend({ id: zId('Appointment') });
export type TPortalMoveInput = z.infer<typeof ZPortalMoveInput>;

/**
 * Profile: what a person may change. Name, e-mail, NIC and branch are not fields of it, so a body
 * carrying them has them dropped (ignored), never stored.
 */
export const ZPortalProfileInput = z.object({
  phone: zPhone('Phone').optional(),
  address: z
    .preprocess(
      (v) => (typeof v === 'string' && !v.trim() ? null : v),
      zText('Address', { multiline: true }).trim().max(300, 'Address must be at most 300 characters.').nullable(),
    )
    .optional(),
  language: z.enum(PORTAL_LANGUAGES, { error: 'Language must be en, si or ta.' }).optional(),
  optOut: z
    .object({
      email: z.boolean({ error: 'E-mail opt-out must be true or false.' }).optional(),
      sms: z.boolean({ error: 'SMS opt-out must be true or false.' }).optional(),
    })
    .optional(),
});
export type TPortalProfileInput = z.infer<typeof ZPortalProfileInput>;

export const ZPortalCodeInput = z.object({ email: ZEmail });
export const ZPortalCodeVerifyInput = z.object({
  email: ZEmail,
  code: zText('Code', { message: 'Please enter the code.' })
    .trim()
    .regex(/^\d{6}$/, 'The code is 6 digits.'),
});
export type TPortalCodeVerifyInput = z.infer<typeof ZPortalCodeVerifyInput>;

export const ZInvitationAcceptInput = z.object({
  token: zText('Invitation', { message: 'The invitation link is not valid.' })
    .trim()
    .min(1, 'The invitation link is not valid.')
    .max(200, 'The invitation link is not valid.'),
  password: ZPassword,
});
export type TInvitationAcceptInput = z.infer<typeof ZInvitationAcceptInput>;

// ------------------------------------------------------------------ answers

const ZNamed = z.object({ _id: z.string(), name: z.string() });
const ZMoney = z.object({ currency: z.string(), amount: zMoneyOut });

/** Who is signed in, as the portal shows it. */
export const ZPortalMe = z.object({
  _id: z.string(),
  username: z.string(),
  fullName: z.string(),
  email: z.string(),
  role: z.string(),
  language: z.enum(PORTAL_LANGUAGES),
  branch: ZNamed.nullable(),
});
export type TPortalMe = z.infer<typeof ZPortalMe>;

/**
 * One appointment of the person's: no note, no practitioner contact, no status reason (a
 * cancellation reason the person gave is theirs, but staff's reasons are internal).
 */
export const ZPortalAppointment = z.object({
  _id: z.string(),
  bookingId: z.string(),
  treatmentName: z.string(),
  practitioner: z.object({ _id: z.string(), fullName: z.string() }),
  branch: ZNamed,
  room: z.object({ name: z.string() }).nullable(),
  start: zInstantOut,
  end: zInstantOut,
  status: z.enum(APPOINTMENT_STATUS_VALUES),
  /** True when it is still live and at least cancelHours ahead. */
  canCancel: z.boolean(),
  /** Inside the cut-off: whom to call instead (the organisation's phone), else null. */
  callToCancel: z.string().nullable(),
  /** The number to call about it: its branch's, else the organisation's; '' when neither is set. */
  clinicPhone: z.string(),
});
export type TPortalAppointment = z.infer<typeof ZPortalAppointment>;
export const ZPortalAppointmentList = z.object({ data: z.array(ZPortalAppointment) });

export const ZPortalNextClass = z.object({
  enrollmentId: z.string(),
  batch: ZNamed,
  courseName: z.string(),
  start: zInstantOut,
  end: zInstantOut,
  room: z.object({ name: z.string() }).nullable(),
});

export const ZPortalHome = z.object({
  nextAppointment: ZPortalAppointment.nullable(),
  nextClass: ZPortalNextClass.nullable(),
  nextDue: z.object({ amount: zMoneyOut, currency: z.string(), dueDate: zDayOut }).nullable(),
  outstanding: z.array(ZMoney),
  /** `since`: the oldest unpaid due date in that currency. */
  overdue: z.array(ZMoney.extend({ since: zDayOut })),
});
export type TPortalHome = z.infer<typeof ZPortalHome>;

/** An installment as the person sees it: part paid when something but not all is paid. */
export const ZPortalInstallment = ZInstallment.pick({
  _id: true,
  amount: true,
  dueDate: true,
  isPaid: true,
  isOverdue: true,
  amountPaid: true,
}).extend({ installmentNumber: zIntOut, partPaid: z.boolean() });
export type TPortalInstallment = z.infer<typeof ZPortalInstallment>;

export const ZPortalTimetableSlot = z.object({
  weekday: z.enum(WEEKDAYS),
  start: z.string(),
  end: z.string(),
  room: z.object({ name: z.string() }).nullable(),
});

export const ZPortalEnrollment = z.object({
  _id: z.string(),
  courseName: z.string(),
  /** The enrolment's display status, as staff see it. */
  status: z.enum(DISPLAY_STATUSES),
  enrolledOn: zDayOut,
  currency: z.string(),
  totalFee: zMoneyOut,
  paidAmount: zMoneyOut,
  outstandingAmount: zMoneyOut,
  admissionFee: zMoneyOut,
  admissionFeePaid: z.boolean(),
  installments: z.array(ZPortalInstallment),
  /** The class the person sits in, with its weekly timetable; null before joining one. */
  batch: z
    .object({
      _id: z.string(),
      name: z.string(),
      startDate: zDayOut,
      endDate: zDayOut,
      branch: ZNamed.nullable(),
      instructor: z.object({ fullName: z.string() }).nullable(),
      timetable: z.array(ZPortalTimetableSlot),
    })
    .nullable(),
  /** Share of held sessions attended (present or late), 0–1; null before any is marked. */
  attendanceRate: z.number().nullable(),
  attendance: z.object({ held: zCountOut, present: zCountOut, late: zCountOut, absent: zCountOut, excused: zCountOut }),
});
export type TPortalEnrollment = z.infer<typeof ZPortalEnrollment>;
export const ZPortalEnrollmentList = z.object({ data: z.array(ZPortalEnrollment) });

export const ZPortalBooking = z.object({
  _id: z.string(),
  treatmentName: z.string(),
  treatmentId: z.string().nullable(),
  status: z.enum(['active', 'cancelled']),
  bookedOn: zDayOut,
  currency: z.string(),
  price: zMoneyOut,
  paidAmount: zMoneyOut,
  outstandingAmount: zMoneyOut,
  sessionsDone: zCountOut,
  maxSessions: zCountOut,
  /** Sessions still free to book: max − done − live appointments. */
  sessionsRemaining: zCountOut,
  installments: z.array(ZPortalInstallment),
  upcoming: z.array(ZPortalAppointment),
  past: z.array(ZPortalAppointment),
});
export type TPortalBooking = z.infer<typeof ZPortalBooking>;
export const ZPortalBookingList = z.object({ data: z.array(ZPortalBooking) });

/** A receipt: no note, no staff names, no void reason (just the status "void"). */
export const ZPortalPayment = z.object({
  _id: z.string(),
  receiptNumber: z.string(),
  amount: zMoneyOut,
  currency: z.string(),
  method: z.string(),
  receivedAt: zInstantOut,
  status: z.enum(['valid', 'void']),
  subject: z.string(),
  refundedAmount: zMoneyOut,
  /** Where the PDF is served (portalReceiptPath). */
  receiptUrl: z.string(),
});
export type TPortalPayment = z.infer<typeof ZPortalPayment>;
export const ZPortalPaymentList = z.object({ data: z.array(ZPortalPayment), statementUrl: z.string() });

/** How to pay: the organisation's contact and paper details, and where the branches are. */
export const ZPortalHowToPay = z.object({
  organisation: z.object({
    name: z.string(),
    address: z.string(),
    phone: z.string(),
    email: z.string(),
    /** The organisation's receipt footer (older organisations wrote bank details there). */
    paymentDetails: z.string(),
    /** Settings → Organisation's bank details: how to pay by bank ('' when none is written). */
    bankDetails: z.string(),
  }),
  branches: z.array(
    z.object({ _id: z.string(), name: z.string(), location: z.string(), phone: z.string().nullable() }),
  ),
});
export type TPortalHowToPay = z.infer<typeof ZPortalHowToPay>;

export const ZPortalProfile = z.object({
  fullName: z.string(),
  email: z.string(),
  nic: z.string().nullable(),
  branch: ZNamed.nullable(),
  phone: z.string().nullable(),
  address: z.string().nullable(),
  language: z.enum(PORTAL_LANGUAGES),
  optOut: z.object({ email: z.boolean(), sms: z.boolean() }),
});
export type TPortalProfile = z.infer<typeof ZPortalProfile>;

export const ZPortalSlot = z.object({
  start: zInstantOut,
  end: zInstantOut,
  practitioner: z.object({ _id: z.string(), fullName: z.string() }),
});
export const ZPortalAvailability = z.object({ data: z.array(ZPortalSlot) });
export type TPortalAvailability = z.infer<typeof ZPortalAvailability>;

/** The same answer whether or not the e-mail names an account. */
export const PORTAL_CODE_SENT =
  'If an account uses this e-mail, a sign-in code is on its way. It is valid for 10 minutes.';
export const ZPortalCodeSent = z.object({ message: z.string() });
export const ZPortalSignedIn = ZSignedIn;
export const ZInviteSent = z.object({ message: z.string(), expiresAt: zInstantOut });
