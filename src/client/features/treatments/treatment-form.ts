import type { RouterOutputs } from '@/lib/trpc';

export type Treatment = RouterOutputs['treatments']['list']['items'][number];

export const REQUIRED_CREATE = 'Please fill all the required fields.';
export const REQUIRED_EDIT = 'Please fill all required fields';
export const NUMERIC = 'All numeric fields must contain valid numbers';
export const BOUNDS = 'Prices must be positive and sessions/installments must be greater than zero';

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

export const EMPTY_FORM: TreatmentForm = {
  treatmentName: '',
  localPrice: '',
  foreignPrice: '',
  maxSessions: '',
  installments: '',
  weeks: '',
  days: '',
  months: '',
};

/** Blank or invalid duration parts become 0 (docs/product.md#validation, Edit treatment). */
const durationPart = (v: string) => {
  const n = Number(v.trim());
  return v.trim() === '' || !Number.isFinite(n) || n < 0 ? 0 : Math.floor(n);
};

/**
 * The form's own checks in docs/product.md#validation's order; the server repeats them (and the name's
 * uniqueness). Answers the message to show, or the values to send.
 */
export interface TreatmentValues {
  treatmentName: string;
  localPrice: number;
  foreignPrice: number;
  maxSessions: number;
  installments: number;
  duration: { weeks: number; days: number; months: number };
}

export function readTreatmentForm(
  f: TreatmentForm,
  requiredMessage: string,
): { error: string } | { values: TreatmentValues } {
  const required = [f.treatmentName, f.localPrice, f.foreignPrice, f.maxSessions, f.installments];
  if (required.some((v) => v.trim() === '')) return { error: requiredMessage };
  const [localPrice, foreignPrice, maxSessions, installments] = [
    f.localPrice,
    f.foreignPrice,
    f.maxSessions,
    f.installments,
  ].map((v) => Number(v.trim())) as [number, number, number, number];
  if (![localPrice, foreignPrice, maxSessions, installments].every(Number.isFinite)) return { error: NUMERIC };
  if (localPrice < 0 || foreignPrice < 0 || maxSessions <= 0 || installments <= 0) return { error: BOUNDS };
  return {
    values: {
      treatmentName: f.treatmentName.trim(),
      localPrice,
      foreignPrice,
      maxSessions,
      installments,
      duration: { weeks: durationPart(f.weeks), days: durationPart(f.days), months: durationPart(f.months) },
    },
  };
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
