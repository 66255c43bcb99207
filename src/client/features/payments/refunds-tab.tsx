import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { QueryView } from '@/components/query-view';
import type { SearchSetter } from '@/lib/list-route';
import { trpc } from '@/lib/trpc';
import { formatMoney } from '@shared/format';
import { MoneyList, PeriodBranchMethodFilters } from './payment-common';
import type { PaymentSearch } from './payment-queries';
import { RefundsTable } from './refunds-table';

const PAGE_SIZE = 50;

/**
 * The Payments screen's Refunds tab (docs/payments.md#refunds): every refund of the period, newest
 * first, paged on the server, with the totals per currency over every page. The period, branch and
 * method are the list's own filters in the URL.
 */
export function RefundsTab({
  search,
  onSearchChange,
}: {
  search: PaymentSearch;
  onSearchChange: SearchSetter<PaymentSearch>;
}) {
  const [page, setPage] = useState(1);
  const set = (next: Partial<PaymentSearch>) => {
    setPage(1);
    onSearchChange({ ...search, ...next });
  };
  const list = useQuery(
    trpc.refunds.list.queryOptions({
      from: search.from,
      to: search.to,
      branchId: search.branchId,
      method: search.method,
      page,
      limit: PAGE_SIZE,
    }),
  );
  const pages = list.data ? Math.max(1, Math.ceil(list.data.total / PAGE_SIZE)) : 1;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Refunds</CardTitle>
      </CardHeader>
      <CardContent className="space-y-4">
        <div className="flex flex-wrap items-end gap-3">
          <PeriodBranchMethodFilters
            from={{ value: search.from, onChange: (from) => set({ from }) }}
            to={{ value: search.to, onChange: (to) => set({ to }) }}
            branch={{ value: search.branchId, onChange: (branchId) => set({ branchId }) }}
            method={{ value: search.method, onChange: (method) => set({ method }) }}
          />
        </div>
        <QueryView query={list} placeholder="h-32 w-full">
          {(refunds) => (
            <>
              <div className="flex flex-wrap gap-4 text-sm" data-testid="refund-totals">
                <span className="text-muted-foreground">Total refunded ({refunds.total}):</span>
                <MoneyList items={refunds.totals} empty={formatMoney(0)} />
              </div>
              <RefundsTable refunds={refunds.data} showPayer />
              {pages > 1 && (
                <div className="flex items-center justify-end gap-2 text-sm">
                  <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => setPage(page - 1)}>
                    Previous
                  </Button>
                  <span>
                    Page {page} of {pages}
                  </span>
                  <Button variant="outline" size="sm" disabled={page >= pages} onClick={() => setPage(page + 1)}>
                    Next
                  </Button>
                </div>
              )}
            </>
          )}
        </QueryView>
      </CardContent>
    </Card>
  );
}
