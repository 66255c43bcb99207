import { listRoute } from '@/lib/list-route';
import { oneOf, pageInput, sortOf, validateListSearch, type ListSearch, type ListSort } from '@/lib/list-search';
import { trpc } from '@/lib/trpc';
import { PAYMENT_METHODS } from '@shared/payment-kinds';
import { PAYMENT_SORT_COLUMNS } from '@shared/schemas/payments';

export const PAYMENT_PAGE_SIZE = 25;

export const PAYMENT_STATUS_FILTERS = ['valid', 'void'] as const;

export type PaymentSortColumn = (typeof PAYMENT_SORT_COLUMNS)[number];

/**
 * The Payments screen's URL search: the list's `?from=2026-11-01&method=card&status=void&sort=amount&dir=desc&page=2`,
 * and the Cash-up tab's `?tab=cash-up&day=2026-11-20&cashBranch=<id>` (its own branch, so switching
 * tabs keeps both choices; no day is today), `?tab=receivables` and `?tab=refunds` (the list's
 * from, to, branch and method filter it too).
 */
export interface PaymentSearch extends ListSearch {
  from?: string;
  to?: string;
  branchId?: string;
  method?: (typeof PAYMENT_METHODS)[number];
  status?: (typeof PAYMENT_STATUS_FILTERS)[number];
  tab?: 'cash-up' | 'receivables' | 'refunds';
  day?: string;
  cashBranch?: string;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const day = (v: unknown) => (typeof v === 'string' && DAY.test(v) ? v : undefined);

const id = (v: unknown) => (typeof v === 'string' && v ? v.slice(0, 200) : undefined);

export function validatePaymentSearch(search: Record<string, unknown>): PaymentSearch {
  return {
    ...validateListSearch(search),
    from: day(search.from),
    to: day(search.to),
    branchId: id(search.branchId),
    method: oneOf(PAYMENT_METHODS, search.method),
    status: oneOf(PAYMENT_STATUS_FILTERS, search.status),
    tab: search.tab === 'cash-up' || search.tab === 'receivables' || search.tab === 'refunds' ? search.tab : undefined,
    day: day(search.day),
    cashBranch: id(search.cashBranch),
  };
}

/** The list's sort from the URL; newest first without a choice. */
export const paymentSort = (search: ListSearch): ListSort<PaymentSortColumn> =>
  sortOf(search, PAYMENT_SORT_COLUMNS, { by: 'receivedAt', dir: 'desc' });

/** The filters as the list procedure and the Excel export name them. */
export function paymentFilters(search: PaymentSearch) {
  return {
    from: search.from,
    to: search.to,
    branchId: search.branchId,
    method: search.method,
    status: search.status,
    search: search.q,
  };
}

/**
 * One place that turns the URL's search, and the page's keyset cursor when Next led to it, into
 * the `payments.list` input (route loader and screen).
 */
export function paymentListOptions(search: PaymentSearch, cursor: string | undefined) {
  const sort = paymentSort(search);
  return trpc.payments.list.queryOptions({
    ...pageInput(search, PAYMENT_PAGE_SIZE, cursor),
    ...paymentFilters(search),
    sortBy: sort.by,
    sortDir: sort.dir,
  });
}

/** /payments. */
export const paymentsRoute = listRoute({
  validateSearch: validatePaymentSearch,
  // The Cash-up tab's choices do not change the list: choosing a day does not reload it.
  listPart: ({ tab: _tab, day: _day, cashBranch: _branch, ...list }) => list,
  prefetch: (queryClient, search, cursor) => queryClient.prefetchQuery(paymentListOptions(search, cursor)),
});
