import { z } from 'zod';
import { blankToUndefined, parseDay, zId, zInstant, zInt, zOptionalText } from '@shared/schemas/primitives';
import { zInstantOut, zMoneyOut, zOneOf } from '@shared/schemas/output';

/** docs/appointments.md: an appointment's life. Cancelled and no-show ones are kept. */
export const APPOINTMENT_STATUS_VALUES = [
  'scheduled',
  'confirmed',
  'arrived',
  'completed',
  'cancelled',
  'no_show',
] as const;
export type AppointmentStatus = (typeof APPOINTMENT_STATUS_VALUES)[number];

/** The statuses that hold the practitioner's (and the customer's) time. */
export const OCCUPYING_STATUSES = ['scheduled', 'confirmed', 'arrived', 'completed'] as const;
/** The statuses that still use one of the booking's sessions without having completed it. */
export const LIVE_STATUSES = ['scheduled', 'confirmed', 'arrived'] as const;

/**
 * docs/appointments.md#status: the moves there are from each status, in the order the calendar's
 * menu offers them. The server refuses any other with a 409; the client offers only these.
 */
export const APPOINTMENT_MOVES: Record<AppointmentStatus, readonly AppointmentStatus[]> = {
  scheduled: ['confirmed', 'arrived', 'no_show', 'cancelled'],
  confirmed: ['arrived', 'no_show', 'cancelled'],
  arrived: ['completed', 'no_show'],
  completed: [],
  cancelled: [],
  no_show: [],
};

/** Working-plan weekdays, Monday first (1 = Monday … 7 = Sunday in the database). */
export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** How far back staff may record an appointment (a walk-in entered afterwards). */
export const BACKDATE_APPOINTMENT_DAYS = 7;
/** The longest range one list call reads, and one availability call. */
export const LIST_MAX_DAYS = 62;
export const AVAILABILITY_MAX_DAYS = 31;
/** How long a series looks ahead for its dates. */
export const SERIES_MAX_WEEKS = 52;

/** The input-level texts; the service's refusals name the clash themselves (appointments.rules.ts). */
export const APPOINTMENT_MESSAGES = {
  notFound: 'Appointment not found.',
  minute: 'Start must be on a whole minute (no seconds).',
  endBeforeStart: 'End must be after start.',
  reasonNeeded: 'Give a reason for cancelling the appointment.',
  status: `Status must be one of ${APPOINTMENT_STATUS_VALUES.join(', ')}.`,
  everyWeeks: 'Every how many weeks must be a whole number from 1 to 4.',
  count: 'Count must be a whole number from 1 to 100.',
  weekdays: `Weekdays must be a list of days (${WEEKDAYS.join(', ')}), each at most once.`,
  nothingToChange: 'Say what to change: start, practitioner, room or branch.',
} as const;

/** An instant on a whole minute: slots and working periods are whole minutes. */
const zMinuteInstant = (label: string) =>
  zInstant(label).refine((s) => Date.parse(s) % 60_000 === 0, `${label} must be on a whole minute (no seconds).`);

/** A room, or none: blank or absent is none; null (on a reschedule) takes the room away. */
const zRoom = z.preprocess(blankToUndefined, zId('Room').nullable().optional());

const zBoundary = (label: string) =>
  z
    .string({ error: `${label} is required: a date (YYYY-MM-DD) or an ISO date-time.` })
    .trim()
    .refine(
      (s) => parseDay(s) !== null || zInstant(label).safeParse(s).success,
      `${label} must be a date (YYYY-MM-DD) or an ISO date-time.`,
    );

const zOptionalId = (label: string) => z.preprocess(blankToUndefined, zId(label).optional());

export const ZCreateAppointmentInput = z
  .object({
    bookingId: zId('Booking'),
    practitionerId: zId('Practitioner'),
    branchId: zId('Branch'),
    start: zMinuteInstant('Start'),
    /** Optional: the end always follows from the treatment's session length; a given one must agree. */
    end: zMinuteInstant('End').optional(),
    roomId: zRoom,
    note: zOptionalText('Note', 2000),
  })
  .refine((a) => !a.end || Date.parse(a.end) > Date.parse(a.start), {
    message: APPOINTMENT_MESSAGES.endBeforeStart,
    path: ['end'],
  });
export type TCreateAppointmentInput = z.infer<typeof ZCreateAppointmentInput>;

export const ZRescheduleAppointmentBody = z
  .object({
    start: zMinuteInstant('Start').optional(),
    practitionerId: zOptionalId('Practitioner'),
    roomId: zRoom,
    branchId: zOptionalId('Branch'),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), APPOINTMENT_MESSAGES.nothingToChange);
export const ZRescheduleAppointmentInput = z.object({ id: zId('Appointment') }).and(ZRescheduleAppointmentBody);
export type TRescheduleAppointmentInput = z.infer<typeof ZRescheduleAppointmentInput>;

export const ZAppointmentStatusBody = z
  .object({
    status: z.enum(APPOINTMENT_STATUS_VALUES, { error: APPOINTMENT_MESSAGES.status }),
    reason: zOptionalText('Reason', 500),
  })
  .refine((b) => b.status !== 'cancelled' || !!b.reason, {
    message: APPOINTMENT_MESSAGES.reasonNeeded,
    path: ['reason'],
  });
export const ZAppointmentStatusInput = z.object({ id: zId('Appointment') }).and(ZAppointmentStatusBody);
export type TAppointmentStatusInput = z.infer<typeof ZAppointmentStatusInput>;

export const ZAppointmentSeriesInput = z.object({
  bookingId: zId('Booking'),
  practitionerId: zId('Practitioner'),
  branchId: zId('Branch'),
  roomId: zRoom,
  start: zMinuteInstant('Start'),
  everyWeeks: zInt(APPOINTMENT_MESSAGES.everyWeeks, 1, 4),
  weekdays: z
    .array(z.enum(WEEKDAYS, { error: APPOINTMENT_MESSAGES.weekdays }), { error: APPOINTMENT_MESSAGES.weekdays })
    .min(1, APPOINTMENT_MESSAGES.weekdays)
    .max(7, APPOINTMENT_MESSAGES.weekdays)
    .refine((days) => new Set(days).size === days.length, APPOINTMENT_MESSAGES.weekdays)
    .optional(),
  count: zInt(APPOINTMENT_MESSAGES.count, 1, 100),
  allOrNothing: z.boolean({ error: 'allOrNothing must be true or false.' }).optional(),
  note: zOptionalText('Note', 2000),
});
export type TAppointmentSeriesInput = z.infer<typeof ZAppointmentSeriesInput>;

/** GET /api/appointments and appointments.list: the same strings on both. */
export const ZListAppointmentsInput = z.object({
  from: zBoundary('From'),
  to: zBoundary('To'),
  branchId: zOptionalId('Branch'),
  practitionerId: zOptionalId('Practitioner'),
  roomId: zOptionalId('Room'),
  customerId: zOptionalId('Customer'),
  bookingId: zOptionalId('Booking'),
  status: z.preprocess(
    blankToUndefined,
    z.enum(APPOINTMENT_STATUS_VALUES, { error: APPOINTMENT_MESSAGES.status }).optional(),
  ),
});
export type TListAppointmentsInput = z.infer<typeof ZListAppointmentsInput>;

export const ZAvailabilityInput = z.object({
  treatmentId: zId('Treatment'),
  branchId: zId('Branch'),
  from: zBoundary('From'),
  to: zBoundary('To'),
  practitionerId: zOptionalId('Practitioner'),
});
export type TAvailabilityInput = z.infer<typeof ZAvailabilityInput>;

export const ZTodayInput = z.object({ branchId: zOptionalId('Branch') });
export type TTodayInput = z.infer<typeof ZTodayInput>;

export const ZAppointmentIdInput = z.object({ id: zId('Appointment') });

// ------------------------------------------------------------------ answers

/** An appointment as the API answers it (docs/appointments.md#appointments). */
export const ZAppointment = z.object({
  _id: z.string(),
  booking: z.object({ _id: z.string() }),
  /** Null once the customer's account is deleted. */
  // fullName beyond the shape: the front desk names people by it.
  customer: z.object({ _id: z.string(), username: z.string(), email: z.string(), fullName: z.string() }).nullable(),
  /** The live treatment's name, else the booking's kept copy (the id is null once it is deleted). */
  treatment: z.object({ _id: z.string().nullable(), treatmentName: z.string() }),
  practitioner: z.object({ _id: z.string(), fullName: z.string(), color: z.string() }),
  room: z.object({ _id: z.string(), name: z.string() }).nullable(),
  branch: z.object({ _id: z.string(), name: z.string() }),
  start: zInstantOut,
  end: zInstantOut,
  status: zOneOf(APPOINTMENT_STATUS_VALUES),
  /** The booking's session this appointment was, once completed. */
  sessionNumber: z.number().int().nullable(),
  /** Why it was cancelled or missed, when given. */
  statusReason: z.string().nullable(),
  note: z.string(),
});
export type TAppointment = z.infer<typeof ZAppointment>;

export const ZAppointmentList = z.object({ data: z.array(ZAppointment) });
export type TAppointmentList = z.infer<typeof ZAppointmentList>;

export const ZSeriesConflict = z.object({ start: zInstantOut, message: z.string() });
export const ZAppointmentSeries = z.object({ created: z.array(ZAppointment), conflicts: z.array(ZSeriesConflict) });
export type TAppointmentSeries = z.infer<typeof ZAppointmentSeries>;

export const ZAvailableSlot = z.object({
  start: zInstantOut,
  end: zInstantOut,
  practitionerId: z.string(),
  roomId: z.string().nullable(),
});
export const ZAvailability = z.object({ data: z.array(ZAvailableSlot) });
export type TAvailability = z.infer<typeof ZAvailability>;

/** The front desk's day: each appointment with what its customer still owes on the booking. */
export const ZTodayAppointment = ZAppointment.extend({ outstanding: zMoneyOut, currency: z.string() });
export const ZTodayList = z.object({ data: z.array(ZTodayAppointment) });
export type TTodayAppointment = z.infer<typeof ZTodayAppointment>;
export type TTodayList = z.infer<typeof ZTodayList>;
