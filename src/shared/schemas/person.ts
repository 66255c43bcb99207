import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { z } from 'zod';
import { parseDay, zText } from '@shared/schemas/primitives';

/*
 * A person as a front desk knows them (docs/users.md#personal-details): phone, NIC, date of birth,
 * gender and an emergency contact. Shared by the forms and the server, so both refuse the same
 * values with the same messages.
 */

/** Numbers without a country code are read as Sri Lankan. */
export const PHONE_REGION = 'LK';

export const GENDERS = ['female', 'male', 'other'] as const;
export type Gender = (typeof GENDERS)[number];
export const GENDER_LABELS: Record<Gender, string> = { female: 'Female', male: 'Male', other: 'Other' };

export const NIC_TAKEN = 'A user with this NIC already exists.';
export const NIC_DOB_MISMATCH = 'NIC does not match the date of birth.';

/** A phone number in E.164 (`+94771234567`), or null when the text is no valid number. */
export function toE164(text: string): string | null {
  const parsed = parsePhoneNumberFromString(text, PHONE_REGION);
  return parsed?.isValid() ? parsed.number : null;
}

/** How screens show a stored number: the local form for Sri Lankan ones, else international. */
export function displayPhone(e164: string | null | undefined): string {
  if (!e164) return '';
  const parsed = parsePhoneNumberFromString(e164, PHONE_REGION);
  if (!parsed) return e164;
  return parsed.country === PHONE_REGION ? parsed.formatNational() : parsed.formatInternational();
}

/** Optional phone: blank clears it; anything else must be a valid number and is stored as E.164. */
export const zPhone = (label: string) =>
  zText(label)
    .trim()
    .max(30, `${label} must be at most 30 characters.`)
    .nullish()
    .transform((v, ctx) => {
      if (!v) return null;
      const e164 = toE164(v);
      if (e164) return e164;
      ctx.addIssue({ code: 'custom', message: `${label} is not a valid phone number.` });
      return z.NEVER;
    });

const OLD_NIC = /^(\d{2})(\d{3})\d{4}[VX]$/;
const NEW_NIC = /^(\d{4})(\d{3})\d{5}$/;

export interface NicFacts {
  year: number;
  /** Day of the year as the card writes it, women's +500 removed. */
  day: number;
  female: boolean;
}

/**
 * What a Sri Lankan NIC says of its holder: old cards `YYDDDnnnnV` (or X), new ones `YYYYDDDnnnnn`,
 * where DDD is the day of the year of birth, plus 500 for women. Null when it is neither form or
 * its day is outside 1–366 (501–866).
 */
export function readNic(nic: string): NicFacts | null {
  const old = OLD_NIC.exec(nic);
  const m = old ?? NEW_NIC.exec(nic);
  if (!m) return null;
  const year = old ? 1900 + Number(m[1]) : Number(m[1]);
  const raw = Number(m[2]);
  const female = raw > 500;
  const day = female ? raw - 500 : raw;
  if (day < 1 || day > 366) return null;
  return { year, day, female };
}

const MONTH_DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * Whether a NIC and a birth day (`YYYY-MM-DD`) agree. The registry counts every year as if
 * February had 29 days, so from March a card of a common year is one day ahead of the plain day
 * of the year; both counts are accepted, so no genuine card is refused.
 */
export function nicMatchesBirthDay(nic: string, dateOfBirth: string): boolean {
  const facts = readNic(nic);
  if (!facts) return false;
  const [y, mo, d] = dateOfBirth.split('-').map(Number) as [number, number, number];
  if (y !== facts.year) return false;
  const registryDay = MONTH_DAYS.slice(0, mo - 1).reduce((a, b) => a + b, 0) + d;
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const plainDay = !leap && mo > 2 ? registryDay - 1 : registryDay;
  return facts.day === registryDay || facts.day === plainDay;
}

/** Optional NIC, stored upper-case (the V or X); blank clears it. */
export const zNic = zText('NIC')
  .trim()
  .max(20, 'NIC must be 9 digits followed by V or X, or 12 digits.')
  .nullish()
  .transform((v, ctx) => {
    if (!v) return null;
    const nic = v.replace(/\s+/g, '').toUpperCase();
    if (!OLD_NIC.test(nic) && !NEW_NIC.test(nic)) {
      ctx.addIssue({ code: 'custom', message: 'NIC must be 9 digits followed by V or X, or 12 digits.' });
      return z.NEVER;
    }
    if (!readNic(nic)) {
      ctx.addIssue({ code: 'custom', message: 'NIC has a birth day number that does not exist.' });
      return z.NEVER;
    }
    return nic;
  });

/** Optional birth day, `YYYY-MM-DD`; blank clears it. */
export const zDateOfBirth = zText('Date of birth')
  .trim()
  .nullish()
  .transform((v, ctx) => {
    if (!v) return null;
    if (parseDay(v)) return v;
    ctx.addIssue({ code: 'custom', message: 'Date of birth must be a date (YYYY-MM-DD) between 1900 and 2100.' });
    return z.NEVER;
  });

/** Optional gender; blank clears it. */
export const zGender = z.preprocess(
  (v) => (v === '' ? null : v),
  z.enum(GENDERS, { message: 'Gender must be female, male or other.' }).nullable(),
);

const contactText = (label: string, max: number) =>
  zText(label)
    .trim()
    .max(max, `${label} must be at most ${max} characters.`)
    .nullish()
    .transform((v) => (v ? v : null));

/**
 * A multipart form carries the contact as JSON text (a JSON body as an object): the REST adapter
 * reads it with this before the schema sees it. Text that is no JSON is left for the schema to refuse.
 */
export function contactFromFormText(v: string | undefined): unknown {
  if (v === undefined || !v.trim()) return v === undefined ? undefined : null;
  try {
    return JSON.parse(v) as unknown;
  } catch {
    return v;
  }
}

/** A guardian or emergency contact; all fields blank is no contact. A contact needs a name and a phone. */
export const zEmergencyContact = z
  .object(
    {
      name: contactText('Emergency contact name', 100),
      relation: contactText('Emergency contact relation', 50),
      phone: zPhone('Emergency contact phone'),
    },
    { message: 'Emergency contact must have a name, relation and phone.' },
  )
  .nullish()
  .transform((c, ctx) => {
    if (!c || (!c.name && !c.relation && !c.phone)) return null;
    if (!c.name) ctx.addIssue({ code: 'custom', path: ['name'], message: 'Emergency contact name is required.' });
    else if (!c.phone)
      ctx.addIssue({ code: 'custom', path: ['phone'], message: 'Emergency contact phone is required.' });
    return c.name && c.phone ? { name: c.name, relation: c.relation, phone: c.phone } : z.NEVER;
  });
export type EmergencyContact = { name: string; relation: string | null; phone: string };

/** The personal details staff may set on Add User and in user details. */
export const personShape = {
  phone: zPhone('Phone').optional(),
  nic: zNic.optional(),
  dateOfBirth: zDateOfBirth.optional(),
  gender: zGender.optional(),
  emergencyContact: zEmergencyContact.optional(),
  /** A student's guardian's phone (E.164); a blank clears it. */
  guardianPhone: zPhone('Guardian phone').optional(),
};

/** A NIC given with a birth day must name that day (checked here when both are sent together). */
export function refineNicWithBirthDay(v: { nic?: string | null; dateOfBirth?: string | null }, ctx: z.RefinementCtx) {
  if (v.nic && v.dateOfBirth && !nicMatchesBirthDay(v.nic, v.dateOfBirth)) {
    ctx.addIssue({ code: 'custom', path: ['nic'], message: NIC_DOB_MISMATCH });
  }
}

/** The details as answered (docs/product.md#records-and-their-fields User). */
export const personOutShape = {
  nic: z.string().nullable(),
  dateOfBirth: z.string().nullable(),
  gender: z.enum(GENDERS).nullable(),
  emergencyContact: z.object({ name: z.string(), relation: z.string().nullable(), phone: z.string() }).nullable(),
  /** Present only when recorded. */
  guardianPhone: z.string().optional(),
};
