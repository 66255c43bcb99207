import { fromMinor } from '../../../shared/money';

/** A stored amount in minor units as the report's decimal amount; none stays empty. */
export const money = (minor: number | string | null | undefined) => (minor == null ? null : fromMinor(Number(minor)));

/** A treatment's duration as the reports print it: '2W 3D', empty when it has none. */
export function durationText(weeks: number, days: number, months: number): string {
  const parts = [weeks ? `${weeks}W` : '', days ? `${days}D` : '', months ? `${months}M` : ''].filter(Boolean);
  return parts.join(' ');
}
