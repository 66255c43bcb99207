const DAY: Intl.DateTimeFormatOptions = { day: '2-digit', month: 'short', year: 'numeric' };

/** A calendar day ('YYYY-MM-DD', e.g. a due date) shown as that day wherever the browser is. */
export function formatDay(isoDate: string): string {
  const [y, m, d] = isoDate.slice(0, 10).split('-').map(Number) as [number, number, number];
  const day = new Date(y, m - 1, d);
  return Number.isNaN(day.getTime()) ? '—' : day.toLocaleDateString('en-GB', DAY);
}

/** An instant shown as the browser's local day; '—' when there is none. */
export function formatInstant(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '—' : d.toLocaleDateString('en-GB', DAY);
}

/** Either of the two: a bare 'YYYY-MM-DD' is a calendar day, anything else an instant. */
export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '—';
  return iso.length === 10 ? formatDay(iso) : formatInstant(iso);
}
