import type { RouterOutputs } from '@/lib/trpc';
import { UPDATE_REQUIRED, zTreatmentValues, type TreatmentValues } from '@shared/schemas/treatments';

export type Treatment = RouterOutputs['treatments']['list']['items'][number];

/** The inline edit of All Treatments: every field is text while it is typed. */
export interface TreatmentForm {
  treatmentName: string;
  localPrice: string;
  foreignPrice: string;
  maxSessions: string;
  installments: string;
  weeks: string;
  days: string;
  months: string;
}

export const REQUIRED_EDIT = UPDATE_REQUIRED;

/** Blank or invalid duration parts become 0 when a row is edited (docs/product.md#validation, Edit treatment). */
const durationPart = (v: string) => {
  const n = Number(v.trim());
  return v.trim() === '' || !Number.isFinite(n) || n < 0 ? 0 : Math.floor(n);
};

/**
 * The row's values checked by the shared schema (src/shared/schemas/treatments.ts), which holds
 * the rules, their order and their messages. Answers the message to show, or the values to send.
 */
export function readTreatmentForm(
  f: TreatmentForm,
  requiredMessage: string,
): { error: string } | { values: TreatmentValues } {
  const { weeks, days, months, ...fields } = f;
  const duration = { weeks: durationPart(weeks), days: durationPart(days), months: durationPart(months) };
  const read = zTreatmentValues(requiredMessage).safeParse({ ...fields, duration });
  if (read.success) return { values: read.data };
  return { error: read.error.issues[0]?.message ?? requiredMessage };
}

export function toForm(t: Treatment): TreatmentForm {
  return {
    treatmentName: t.treatmentName,
    localPrice: String(t.localPrice),
    foreignPrice: String(t.foreignPrice),
    maxSessions: String(t.maxSessions),
    installments: String(t.installments),
    weeks: String(t.duration.weeks),
    days: String(t.duration.days),
    months: String(t.duration.months),
  };
}

/** Duration as the table shows it: '2W 3D 1M', or '—' when there is none. */
export function formatDuration(d: { weeks: number; days: number; months: number }): string {
  const parts = [d.weeks ? `${d.weeks}W` : '', d.days ? `${d.days}D` : '', d.months ? `${d.months}M` : ''].filter(
    Boolean,
  );
  return parts.length ? parts.join(' ') : '—';
}
