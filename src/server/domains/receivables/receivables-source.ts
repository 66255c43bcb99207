import type { Db } from '../../db/client';
import type { ReportColumn, ReportRow, ReportSource } from '../reports/report-source';
import { money } from '../reports/report-values';
import {
  agedRows,
  agedTotals,
  type AgedCursor,
  type AgedRow,
  type AgedTotal,
  type ReceivablesScope,
} from './receivables.sql';
import { personName } from './receivables.service';

const COLUMNS: ReportColumn[] = [
  { key: 'person', header: 'Person', type: 'text', width: 28 },
  { key: 'phone', header: 'Phone', type: 'text', width: 16 },
  { key: 'currency', header: 'Currency', type: 'text', width: 10 },
  { key: 'd1_30', header: '1–30 days', type: 'money', width: 14 },
  { key: 'd31_60', header: '31–60 days', type: 'money', width: 14 },
  { key: 'd61_90', header: '61–90 days', type: 'money', width: 14 },
  { key: 'd90_plus', header: 'Over 90 days', type: 'money', width: 14 },
  { key: 'total', header: 'Total overdue', type: 'money', width: 16 },
  { key: 'oldestDue', header: 'Oldest due', type: 'date', width: 12 },
];

/**
 * Each read computes the whole aggregate before it can cut a piece of it, so the walk reads large
 * pieces (a few for 100,000 people) and hands them to the writers in their batch size.
 */
const WALK_PIECE = 20_000;

const amounts = (r: AgedRow | AgedTotal) => ({
  d1_30: money(r.d1_30),
  d31_60: money(r.d31_60),
  d61_90: money(r.d61_90),
  d90_plus: money(r.d90_plus),
  total: money(r.total),
});

/** The receivables as a report file (Excel, PDF): every row, most overdue first, then totals per currency. */
export function receivablesSource(db: Db, s: ReceivablesScope, filterLines: string[]): ReportSource {
  let totals: Promise<AgedTotal[]> | undefined;
  const allTotals = () => (totals ??= agedTotals(db, s));
  return {
    title: 'Receivables',
    fileBase: 'receivables',
    columns: COLUMNS,
    filterLines,
    count: async () => (await allTotals()).reduce((n, t) => n + t.rows, 0),
    async *batches(size) {
      let after: AgedCursor | null = null;
      for (;;) {
        const piece = await agedRows(db, s, { limit: WALK_PIECE, after });
        for (let i = 0; i < piece.length; i += size) {
          yield piece.slice(i, i + size).map((r): ReportRow => ({
            person: personName(r),
            phone: r.phone,
            currency: r.currency,
            ...amounts(r),
            oldestDue: r.oldest,
          }));
        }
        const last = piece.at(-1);
        if (!last || piece.length < WALK_PIECE) return;
        after = { oldest: last.oldest, personKey: last.personKey, currency: last.currency };
      }
    },
    async totals() {
      return (await allTotals()).map((t): ReportRow => ({
        person: `Total (${t.currency})`,
        phone: null,
        currency: t.currency,
        ...amounts(t),
        oldestDue: null,
      }));
    },
  };
}
