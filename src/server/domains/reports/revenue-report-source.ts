import type { CurrencySettings } from '../settings/settings.service';
import type { ReportColumn, ReportRow, ReportSource } from './report-source';
import { money } from './report-values';

export interface RevenueGroup {
  name: string;
  category: string | null;
  currency: string;
  count: number;
  expected: number;
  /** Every valid payment received, before refunds. */
  collected: number;
  /** What was given back of it; collected − refunded is the net the items hold paid. */
  refunded: number;
  outstanding: number;
}

const REVENUE_COLUMNS = (countLabel: string, nameLabel: string): ReportColumn[] => [
  { key: 'name', header: nameLabel, type: 'text', width: 30 },
  { key: 'category', header: 'Category', type: 'text', width: 18 },
  { key: 'currency', header: 'Currency', type: 'text', width: 10 },
  { key: 'count', header: countLabel, type: 'int', width: 12 },
  { key: 'expected', header: 'Billed', type: 'money', width: 16 },
  { key: 'collected', header: 'Collected', type: 'money', width: 16 },
  { key: 'refunded', header: 'Refunded', type: 'money', width: 14 },
  { key: 'net', header: 'Net', type: 'money', width: 16 },
  { key: 'outstanding', header: 'Outstanding', type: 'money', width: 16 },
];

/**
 * Money of different currencies is never added together, except in the one line that converts
 * the foreign currency at the current exchange rate (docs/reports.md, Reports).
 */
export function revenueSource(opts: {
  title: string;
  fileBase: string;
  countLabel: string;
  nameLabel: string;
  filterLines: string[];
  currency: CurrencySettings;
  groups: () => Promise<RevenueGroup[]>;
}): ReportSource {
  const { localCurrency, foreignCurrency, exchangeRate } = opts.currency;
  let cached: Promise<RevenueGroup[]> | undefined;
  const groups = () => (cached ??= opts.groups());
  const toRow = (g: RevenueGroup): ReportRow => ({
    name: g.name,
    category: g.category,
    currency: g.currency,
    count: g.count,
    expected: money(g.expected),
    collected: money(g.collected),
    refunded: money(g.refunded),
    net: money(g.collected - g.refunded),
    outstanding: money(g.outstanding),
  });
  async function summary() {
    const byCurrency = new Map<string, Omit<RevenueGroup, 'name' | 'category'>>();
    for (const g of await groups()) {
      const t = byCurrency.get(g.currency) ?? {
        currency: g.currency,
        count: 0,
        expected: 0,
        collected: 0,
        refunded: 0,
        outstanding: 0,
      };
      t.count += g.count;
      t.expected += g.expected;
      t.collected += g.collected;
      t.refunded += g.refunded;
      t.outstanding += g.outstanding;
      byCurrency.set(g.currency, t);
    }
    const toLocal = (c: string, minor: number) =>
      c === localCurrency ? minor : c === foreignCurrency ? Math.round(minor * exchangeRate) : 0;
    const local = { currency: localCurrency, exchangeRate, expected: 0, collected: 0, refunded: 0, outstanding: 0 };
    for (const t of byCurrency.values()) {
      local.expected += toLocal(t.currency, t.expected);
      local.collected += toLocal(t.currency, t.collected);
      local.refunded += toLocal(t.currency, t.refunded);
      local.outstanding += toLocal(t.currency, t.outstanding);
    }
    return {
      byCurrency: [...byCurrency.values()].map((t) => ({
        ...t,
        expected: money(t.expected),
        collected: money(t.collected),
        refunded: money(t.refunded),
        net: money(t.collected - t.refunded),
        outstanding: money(t.outstanding),
      })),
      local: {
        ...local,
        expected: money(local.expected),
        collected: money(local.collected),
        refunded: money(local.refunded),
        net: money(local.collected - local.refunded),
        outstanding: money(local.outstanding),
      },
    };
  }
  return {
    title: opts.title,
    fileBase: opts.fileBase,
    columns: REVENUE_COLUMNS(opts.countLabel, opts.nameLabel),
    filterLines: opts.filterLines,
    count: async () => (await groups()).length,
    async *batches() {
      const all = await groups();
      if (all.length) yield all.map(toRow);
    },
    async totals() {
      const s = await summary();
      const rows: ReportRow[] = s.byCurrency.map((t) => ({ name: `Total (${t.currency})`, category: null, ...t }));
      if (s.byCurrency.some((t) => t.currency !== localCurrency)) {
        rows.push({
          name: `Total in ${localCurrency} (1 ${foreignCurrency} = ${exchangeRate} ${localCurrency})`,
          category: null,
          currency: localCurrency,
          count: s.byCurrency.reduce((a, t) => a + t.count, 0),
          expected: s.local.expected,
          collected: s.local.collected,
          refunded: s.local.refunded,
          net: s.local.net,
          outstanding: s.local.outstanding,
        });
      }
      return rows;
    },
    summary: async () => ({ totals: await summary() }),
  };
}
