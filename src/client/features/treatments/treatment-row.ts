import type { RouterOutputs } from '@/lib/trpc';
import { ZUpdateTreatmentInput } from '@shared/schemas/treatments';
// Relative, so that its unit test (run without the client's '@/' alias) can load it.
import { readWith } from '../../lib/read-draft';

export type Treatment = RouterOutputs['treatments']['list']['items'][number];

/** A row of All Treatments while it is edited in place: every field is text while it is typed. */
export function toDraft(t: Treatment) {
  return {
    id: t._id,
    treatmentName: t.treatmentName,
    localPrice: String(t.localPrice),
    foreignPrice: String(t.foreignPrice),
    maxSessions: String(t.maxSessions),
    installments: String(t.installments),
    weeks: String(t.duration.weeks),
    days: String(t.duration.days),
    months: String(t.duration.months),
    sessionMinutes: String(t.sessionMinutes),
    bufferMinutes: String(t.bufferMinutes),
    requiresRoom: t.requiresRoom,
  };
}

/** Blank or invalid duration parts become 0 when a row is edited (docs/product.md#validation, Edit treatment). */
const durationPart = (v: string) => {
  const n = Number(v.trim());
  return v.trim() === '' || !Number.isFinite(n) || n < 0 ? 0 : Math.floor(n);
};

/**
 * The edited row read by `treatments.update`'s own schema, which holds the rules, their order and
 * their messages: the input to send, or the first message to show.
 */
export function readDraft({
  weeks,
  days,
  months,
  sessionMinutes,
  bufferMinutes,
  ...fields
}: ReturnType<typeof toDraft>) {
  const duration = { weeks: durationPart(weeks), days: durationPart(days), months: durationPart(months) };
  // Minutes go as numbers, so a blank or a word is refused with the schema's own message.
  const minutes = (v: string) => (v.trim() === '' ? Number.NaN : Number(v.trim()));
  return readWith(ZUpdateTreatmentInput)({
    ...fields,
    duration,
    sessionMinutes: minutes(sessionMinutes),
    bufferMinutes: minutes(bufferMinutes),
  });
}

/** Timing as the table shows it: '60 min', then the buffer and whether it needs a room. */
export function formatTiming(t: { sessionMinutes: number; bufferMinutes: number; requiresRoom: boolean }): string {
  return [
    `${t.sessionMinutes} min`,
    t.bufferMinutes ? `+${t.bufferMinutes} min buffer` : '',
    t.requiresRoom ? 'room' : '',
  ]
    .filter(Boolean)
    .join(' · ');
}

/** Duration as the table shows it: '2W 3D 1M', or '—' when there is none. */
export function formatDuration(d: { weeks: number; days: number; months: number }): string {
  const parts = [d.weeks ? `${d.weeks}W` : '', d.days ? `${d.days}D` : '', d.months ? `${d.months}M` : ''].filter(
    Boolean,
  );
  return parts.length ? parts.join(' ') : '—';
}
