import { formatMoney } from '../../../shared/format';
import type { ServiceContext } from '../context';
import { listTills } from './tills.read';

type Amounts = Array<{ currency: string; amount: number }>;
const moneyList = (a: Amounts | null) =>
  a?.length ? a.map((x) => formatMoney(x.amount, x.currency)).join(' + ') : '—';

/**
 * The cash-up file's lines for the tills of its days (docs/payments.md#tills): float, expected,
 * counted, difference and who closed each. At most 200 tills; a longer list says how many more.
 */
export async function tillCashUpLines(
  ctx: ServiceContext,
  f: { from: string; to: string; branchId?: string | null },
): Promise<string[]> {
  const page = await listTills(ctx, {
    from: f.from,
    to: f.to,
    branchId: f.branchId ?? undefined,
    page: 1,
    pageSize: 200,
  });
  if (page.total === 0) return ['No tills were opened.'];
  const lines = page.data.map((t) => {
    const who = `Till of ${t.cashier.username} at ${t.branch.name} (${t.openingDay})`;
    const float = `float ${moneyList(t.openingFloat)}`;
    if (t.status === 'open') return `${who}: ${float}, still open, expected so far ${moneyList(t.expected)}`;
    return `${who}: ${float}, expected ${moneyList(t.expected)}, counted ${moneyList(t.counted)}, difference ${moneyList(t.difference)}, closed by ${t.closedBy?.username ?? 'unknown'}${t.note ? ` (${t.note})` : ''}`;
  });
  return page.total > lines.length ? [...lines, `… and ${page.total - lines.length} more tills.`] : lines;
}
