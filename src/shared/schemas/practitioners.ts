import { z } from 'zod';
import { blankToUndefined, parseDay, zId, zInstant, zOptionalText, zText } from '@shared/schemas/primitives';
import { zCountOut, zDayOut, zInstantOut } from '@shared/schemas/output';

/*
 * The resources of the calendar (docs/appointments.md#resources): practitioners, rooms, working
 * plans, time off and branch closures. Inputs and answers are declared here once, for the server's
 * checks and the Settings screens' forms alike.
 */

/** The user-facing texts of the resource rules. */
export const RESOURCE_MESSAGES = {
  practitionerNotFound: 'Practitioner not found.',
  userNotFound: 'User not found.',
  branchNotFound: 'Branch not found.',
  treatmentNotFound: 'Treatment not found.',
  roomNotFound: 'Room not found.',
  timeOffNotFound: 'Time off not found.',
  closureNotFound: 'Closure not found.',
  alreadyPractitioner: 'This user is already a practitioner.',
  chooseBranch: 'Choose at least one branch the practitioner works at.',
  color: 'Colour must be a hex colour such as #2563eb.',
  notAtBranch: 'This practitioner does not work at that branch. Add the branch to the practitioner first.',
  deleted: 'Practitioner deleted successfully!',
  deactivated: 'This practitioner has appointments, so they were deactivated instead of deleted.',
  roomName: 'Room name is required.',
  duplicateRoom: 'A room with this name already exists at this branch.',
  capacity: 'Capacity must be a whole number from 1 to 100.',
  roomDeleted: 'Room deleted successfully!',
  endAfterStart: 'End must be after start.',
  timeOffTooLong: 'Time off can last at most 366 days.',
  timeOffDeleted: 'Time off deleted.',
  closureDay: 'Date must be a date (YYYY-MM-DD) between 1900 and 2100.',
  duplicateClosure: 'This branch is already closed on that day.',
  closureDeleted: 'Closure deleted.',
  time: 'Times must be written HH:MM, from 00:00 to 24:00.',
} as const;

export const roomHasAppointments = (n: number) =>
  `This room has ${n} ${n === 1 ? 'appointment' : 'appointments'}, so it cannot be deleted. Rename it instead, or move its appointments to another room first.`;

// ------------------------------------------------------------------ practitioners

const zIdList = (label: string) =>
  z
    .array(zId(label), { error: `${label} must be a list of ids.` })
    .max(200, `${label} can name at most 200.`)
    .transform((ids) => [...new Set(ids)]);

const color = zText('Colour', { message: RESOURCE_MESSAGES.color })
  .trim()
  .regex(/^#[0-9a-fA-F]{6}$/, RESOURCE_MESSAGES.color)
  .transform((s) => s.toLowerCase());

const branchIds = zIdList('Branches').refine((ids) => ids.length > 0, RESOURCE_MESSAGES.chooseBranch);

export const ZCreatePractitionerInput = z.object({
  userId: zId('User'),
  branchIds,
  treatmentIds: zIdList('Treatments').default([]),
  color: color.optional(),
});
export type TCreatePractitionerInput = z.infer<typeof ZCreatePractitionerInput>;

/** PUT /api/practitioners/{id}: what is sent changes, what is left out stays. */
export const ZUpdatePractitionerBody = z.object({
  branchIds: branchIds.optional(),
  treatmentIds: zIdList('Treatments').optional(),
  color: color.optional(),
  active: z.boolean({ error: 'Active must be true or false.' }).optional(),
});
export const ZUpdatePractitionerInput = ZUpdatePractitionerBody.extend({ id: zId('Practitioner') });
export type TUpdatePractitionerInput = z.infer<typeof ZUpdatePractitionerInput>;

export const ZPractitionerIdInput = z.object({ id: zId('Practitioner') });

const zFlag = (label: string) =>
  z.preprocess(
    (v) => (v === 'true' ? true : v === 'false' ? false : blankToUndefined(v)),
    z.boolean({ error: `${label} must be true or false.` }).optional(),
  );

/** GET /api/practitioners and `practitioners.list`: who works at a branch, who delivers a treatment. */
export const ZListPractitionersInput = z.object({
  branchId: zOptionalText('Branch', 200),
  treatmentId: zOptionalText('Treatment', 200),
  active: zFlag('Active'),
});
export type TListPractitionersInput = z.infer<typeof ZListPractitionersInput>;

// ------------------------------------------------------------------ rooms

const roomName = zText('Room name', { message: RESOURCE_MESSAGES.roomName })
  .trim()
  .min(1, RESOURCE_MESSAGES.roomName)
  .max(100, 'Room name must be at most 100 characters.');
const capacity = z
  .number({ error: RESOURCE_MESSAGES.capacity })
  .int(RESOURCE_MESSAGES.capacity)
  .min(1, RESOURCE_MESSAGES.capacity)
  .max(100, RESOURCE_MESSAGES.capacity);

export const ZCreateRoomInput = z.object({ name: roomName, branchId: zId('Branch'), capacity: capacity.default(1) });
export type TCreateRoomInput = z.infer<typeof ZCreateRoomInput>;

/** PUT /api/rooms/{id}: a room keeps its branch (its appointments are there); name and capacity change. */
export const ZUpdateRoomBody = z.object({ name: roomName.optional(), capacity: capacity.optional() });
export const ZUpdateRoomInput = ZUpdateRoomBody.extend({ id: zId('Room') });
export type TUpdateRoomInput = z.infer<typeof ZUpdateRoomInput>;

export const ZRoomIdInput = z.object({ id: zId('Room') });
export const ZListRoomsInput = z.object({ branchId: zOptionalText('Branch', 200) });
export type TListRoomsInput = z.infer<typeof ZListRoomsInput>;

// ------------------------------------------------------------------ working plans

/** Weekday names in order: weekday number 1 (Monday) to 7 (Sunday) is the index plus one. */
export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];
export const WEEKDAY_LABELS: Record<Weekday, string> = {
  monday: 'Monday',
  tuesday: 'Tuesday',
  wednesday: 'Wednesday',
  thursday: 'Thursday',
  friday: 'Friday',
  saturday: 'Saturday',
  sunday: 'Sunday',
};

const TIME_RE = /^(?:([01]\d|2[0-3]):([0-5]\d)|24:00)$/;

/** "HH:MM" as minutes after midnight, or null when it is not such a time. */
export function minutesOf(hhmm: string): number | null {
  if (hhmm === '24:00') return 1440;
  const m = TIME_RE.exec(hhmm);
  return m ? Number(m[1]) * 60 + Number(m[2]) : null;
}

/** Minutes after midnight as "HH:MM". */
export function timeOf(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

const zTime = zText('Time', { message: RESOURCE_MESSAGES.time }).refine(
  (s) => minutesOf(s) !== null,
  RESOURCE_MESSAGES.time,
);
const ZPeriod = z.object({ start: zTime, end: zTime });
export type TPeriod = z.infer<typeof ZPeriod>;
const ZDayPeriods = z
  .array(ZPeriod, { error: 'Each day must be a list of { start, end } periods.' })
  .max(12, 'A day can have at most 12 working periods.');

/**
 * The week's periods, each day checked on its own: a period must end after it starts, and no two
 * may overlap (touching is fine: 09:00–13:00 and 13:00–18:00 leave no break). A day left out is a
 * day off. The answer has every day, each day's periods in order.
 */
const ZDays = z
  .strictObject(
    Object.fromEntries(WEEKDAYS.map((d) => [d, ZDayPeriods.optional()])) as Record<
      Weekday,
      z.ZodOptional<typeof ZDayPeriods>
    >,
    {
      error: (iss) =>
        iss.code === 'unrecognized_keys'
          ? 'Days must be named monday to sunday.'
          : 'Days must be an object of weekdays.',
    },
  )
  .superRefine((days, ctx) => {
    for (const day of WEEKDAYS) {
      const label = WEEKDAY_LABELS[day];
      const periods = (days[day] ?? []).map((p, i) => ({
        ...p,
        i,
        s: minutesOf(p.start) ?? 0,
        e: minutesOf(p.end) ?? 0,
      }));
      for (const p of periods) {
        if (p.e <= p.s)
          ctx.addIssue({
            code: 'custom',
            path: [day, p.i],
            message: `On ${label}, ${p.start}–${p.end} must end after it starts.`,
          });
      }
      const sorted = [...periods].sort((a, b) => a.s - b.s);
      for (let k = 1; k < sorted.length; k++) {
        const a = sorted[k - 1]!;
        const b = sorted[k]!;
        if (b.s < a.e)
          ctx.addIssue({
            code: 'custom',
            path: [day, b.i],
            message: `On ${label}, ${a.start}–${a.end} and ${b.start}–${b.end} overlap.`,
          });
      }
    }
  })
  .transform((days) => {
    const out = {} as Record<Weekday, TPeriod[]>;
    for (const d of WEEKDAYS)
      out[d] = [...(days[d] ?? [])].sort((a, b) => (minutesOf(a.start) ?? 0) - (minutesOf(b.start) ?? 0));
    return out;
  });

export const ZSetWorkingPlanBody = z.object({ branchId: zId('Branch'), days: ZDays });
export const ZSetWorkingPlanInput = ZSetWorkingPlanBody.extend({ id: zId('Practitioner') });
export type TSetWorkingPlanInput = z.infer<typeof ZSetWorkingPlanInput>;

export const ZWorkingPlanQuery = z.object({ branchId: zId('Branch') });
export const ZWorkingPlanInput = ZWorkingPlanQuery.extend({ id: zId('Practitioner') });
export type TWorkingPlanInput = z.infer<typeof ZWorkingPlanInput>;

// ------------------------------------------------------------------ time off and closures

const MAX_TIME_OFF_MS = 366 * 86_400_000;

export const ZAddTimeOffBody = z
  .object({
    start: zInstant('Start'),
    end: zInstant('End'),
    reason: zOptionalText('Reason', 500),
  })
  .superRefine((v, ctx) => {
    const ms = Date.parse(v.end) - Date.parse(v.start);
    if (!(ms > 0)) ctx.addIssue({ code: 'custom', path: ['end'], message: RESOURCE_MESSAGES.endAfterStart });
    else if (ms > MAX_TIME_OFF_MS)
      ctx.addIssue({ code: 'custom', path: ['end'], message: RESOURCE_MESSAGES.timeOffTooLong });
  });
export const ZAddTimeOffInput = z.object({ id: zId('Practitioner'), timeOff: ZAddTimeOffBody });
export type TAddTimeOffInput = z.infer<typeof ZAddTimeOffInput>;
export const ZTimeOffIdInput = z.object({ id: zId('Practitioner'), timeOffId: zId('Time off') });
export type TTimeOffIdInput = z.infer<typeof ZTimeOffIdInput>;

const zDay = (label: string) =>
  zText(label, { message: RESOURCE_MESSAGES.closureDay }).refine(
    (s) => parseDay(s) !== null,
    RESOURCE_MESSAGES.closureDay,
  );
const zOptionalDay = (label: string) =>
  z.preprocess(
    blankToUndefined,
    zText(label)
      .refine((s) => parseDay(s) !== null, `${label} must be a date (YYYY-MM-DD) between 1900 and 2100.`)
      .optional(),
  );

/** A list's optional window (`from`, `to`: days, both included). */
export const ZDayRangeQuery = z
  .object({ from: zOptionalDay('From'), to: zOptionalDay('To') })
  .refine((f) => !f.from || !f.to || f.from <= f.to, { message: 'From must be on or before To.', path: ['to'] });
export type TDayRange = z.infer<typeof ZDayRangeQuery>;

export const ZListTimeOffInput = z.object({ id: zId('Practitioner'), range: ZDayRangeQuery.optional() });
export type TListTimeOffInput = z.infer<typeof ZListTimeOffInput>;

export const ZAddClosureBody = z.object({ date: zDay('Date'), reason: zOptionalText('Reason', 500) });
export const ZAddClosureInput = z.object({ branchId: zId('Branch'), closure: ZAddClosureBody });
export type TAddClosureInput = z.infer<typeof ZAddClosureInput>;
export const ZClosureIdInput = z.object({ branchId: zId('Branch'), closureId: zId('Closure') });
export type TClosureIdInput = z.infer<typeof ZClosureIdInput>;
export const ZListClosuresInput = z.object({ branchId: zId('Branch'), range: ZDayRangeQuery.optional() });
export type TListClosuresInput = z.infer<typeof ZListClosuresInput>;

// ------------------------------------------------------------------ answers

const ZRef = z.object({ _id: z.string(), name: z.string() });

/** A practitioner as the API answers it (docs/appointments.md#resources). */
export const ZPractitioner = z.object({
  _id: z.string(),
  user: z.object({ _id: z.string(), username: z.string(), fullName: z.string(), email: z.string() }),
  branches: z.array(ZRef),
  treatments: z.array(z.object({ _id: z.string(), treatmentName: z.string() })),
  color: z.string(),
  active: z.boolean(),
});
export type TPractitioner = z.infer<typeof ZPractitioner>;
export const ZPractitionerList = z.object({ data: z.array(ZPractitioner) });
export type TPractitionerList = z.infer<typeof ZPractitionerList>;

/** DELETE /api/practitioners/{id}: deleted, or kept inactive because it has appointments. */
export const ZPractitionerRemoved = z.object({ message: z.string(), deactivated: z.boolean() });
export type TPractitionerRemoved = z.infer<typeof ZPractitionerRemoved>;

export const ZRoom = z.object({ _id: z.string(), name: z.string(), branch: ZRef, capacity: z.number().int() });
export type TRoom = z.infer<typeof ZRoom>;
export const ZRoomList = z.object({ data: z.array(ZRoom) });
export type TRoomList = z.infer<typeof ZRoomList>;

const ZPeriodOut = z.object({ start: z.string(), end: z.string() });
export const ZWorkingPlan = z.object({
  practitionerId: z.string(),
  branch: ZRef,
  days: z.object(
    Object.fromEntries(WEEKDAYS.map((d) => [d, z.array(ZPeriodOut)])) as Record<Weekday, z.ZodArray<typeof ZPeriodOut>>,
  ),
  /** Working minutes in the week. */
  weeklyMinutes: zCountOut,
});
export type TWorkingPlan = z.infer<typeof ZWorkingPlan>;

export const ZTimeOff = z.object({
  _id: z.string(),
  practitionerId: z.string(),
  start: zInstantOut,
  end: zInstantOut,
  reason: z.string(),
  createdAt: zInstantOut,
});
export type TTimeOff = z.infer<typeof ZTimeOff>;
export const ZTimeOffList = z.object({ data: z.array(ZTimeOff) });
export type TTimeOffList = z.infer<typeof ZTimeOffList>;

export const ZClosure = z.object({
  _id: z.string(),
  branch: ZRef,
  date: zDayOut,
  reason: z.string(),
  createdAt: zInstantOut,
});
export type TClosure = z.infer<typeof ZClosure>;
export const ZClosureList = z.object({ data: z.array(ZClosure) });
export type TClosureList = z.infer<typeof ZClosureList>;
