import { useQuery } from '@tanstack/react-query';
import { FileSpreadsheetIcon } from 'lucide-react';
import { DataList } from '@/components/data-list';
import { DatePicker } from '@/components/date-picker';
import { FilterField, SelectFilter } from '@/components/filter-field';
import { PageHeader } from '@/components/page-header';
import { PersonName } from '@/components/person-name';
import { RequireRole, STAFF_ROLES } from '@/components/require-role';
import { Button } from '@/components/ui/button';
import { QueryView } from '@/components/query-view';
import { numeric, SimpleTable } from '@/components/simple-table';
import { TableCell, TableRow } from '@/components/ui/table';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useUrlSearch, type SearchSetter } from '@/lib/list-route';
import { usePagedList } from '@/lib/use-paged-list';
import { trpc } from '@/lib/trpc';
import { formatDateTime, formatDay, formatMoney } from '@shared/format';
import { BranchSelect, MoneyList, PAYMENT_METHOD_LABELS, PeriodBranchMethodFilters } from './payment-common';
import { FileButtons } from '@/components/file-buttons';
import { TitledCard } from '@/components/titled-card';
import { downloadFile, queryString } from '@/lib/download';
import {
  PAYMENT_PAGE_SIZE,
  paymentFilters,
  paymentListOptions,
  paymentSort,
  validatePaymentSearch,
  type PaymentSearch,
} from './payment-queries';
import { paymentRowProps, usePaymentColumns } from './payments-table';
import { CashUpTills } from '../tills/cash-up-tills';
import { TillCard } from '../tills/till-card';
import { Receivables } from './receivables-tab';
import { RefundsTab } from './refunds-tab';
import { useOrgToday } from '@/lib/org-clock';
import type { PaymentMethod } from '@shared/payment-kinds';

/** The ledger for managers, admins and superadmins: list, totals, Excel, cash-up (docs/payments.md). */
export function PaymentsPage() {
  const [search, onSearchChange] = useUrlSearch(validatePaymentSearch);
  return (
    <div>
      <PageHeader title="Payments" description="Every payment received, with its receipt." />
      <RequireRole roles={STAFF_ROLES}>
        <TillCard />
        <Tabs
          value={search.tab ?? 'list'}
          onValueChange={(tab) =>
            onSearchChange({
              ...search,
              tab: tab === 'cash-up' || tab === 'receivables' || tab === 'refunds' ? tab : undefined,
            })
          }
        >
          <TabsList>
            <TabsTrigger value="list">Payments</TabsTrigger>
            <TabsTrigger value="cash-up">Cash-up</TabsTrigger>
            <TabsTrigger value="receivables">Receivables</TabsTrigger>
            <TabsTrigger value="refunds">Refunds</TabsTrigger>
          </TabsList>
          <TabsContent value="list">
            <PaymentList search={search} onSearchChange={onSearchChange} />
          </TabsContent>
          <TabsContent value="cash-up">
            <CashUp search={search} onSearchChange={onSearchChange} />
          </TabsContent>
          <TabsContent value="receivables">
            <Receivables />
          </TabsContent>
          <TabsContent value="refunds">
            <RefundsTab search={search} onSearchChange={onSearchChange} />
          </TabsContent>
        </Tabs>
      </RequireRole>
    </div>
  );
}

const STATUS_LABELS = { valid: 'Valid', void: 'Void' } as const;

/** The ledger, searched, filtered, sorted and paged on the server; every choice is in the URL. */
function PaymentList({
  search,
  onSearchChange,
}: {
  search: PaymentSearch;
  onSearchChange: SearchSetter<PaymentSearch>;
}) {
  const paged = usePagedList((cursor) => paymentListOptions(search, cursor), search, onSearchChange);
  const { columns, dialog } = usePaymentColumns({ showPayer: true });
  const totals = paged.list.data?.totals ?? [];
  return (
    <>
      <DataList
        paged={paged}
        sort={paymentSort(search)}
        numbered={false}
        searchPlaceholder="Receipt, payer, course…"
        searchLabel="Search payments"
        filters={
          <>
            <PeriodBranchMethodFilters
              from={paged.filter('from')}
              to={paged.filter('to')}
              branch={paged.filter('branchId')}
              method={paged.filter('method')}
            />
            <FilterField label="Status" className="w-32">
              <SelectFilter label="Status" all="All" options={STATUS_LABELS} {...paged.filter('status')} />
            </FilterField>
            <Button
              variant="outline"
              onClick={() =>
                void downloadFile(
                  `/api/payments/excel${queryString(paymentFilters(search))}`,
                  'payments (Excel)',
                  'payments.xlsx',
                )
              }
            >
              <FileSpreadsheetIcon /> Export Excel
            </Button>
          </>
        }
        summary={
          <div className="mb-3 flex flex-wrap gap-4 text-sm" data-testid="payment-totals">
            <span className="text-muted-foreground">Total of valid payments:</span>
            <MoneyList items={totals} empty={formatMoney(0)} />
          </div>
        }
        label="Payments"
        empty="No payments."
        pageSize={PAYMENT_PAGE_SIZE}
        rowProps={paymentRowProps}
        columns={columns}
      />
      {dialog}
    </>
  );
}

/** Amounts per method and currency, a line each, with the number of receipts or refunds when counted. */
function MethodLines({
  items,
  empty,
}: {
  items: { method: PaymentMethod; currency: string; amount: number; count?: number }[];
  empty: string;
}) {
  if (items.length === 0) return empty;
  return items.map((m) => (
    <p key={`${m.method}-${m.currency}`}>
      {PAYMENT_METHOD_LABELS[m.method]}: {formatMoney(m.amount, m.currency)}
      {m.count !== undefined && ` (${m.count})`}
    </p>
  ));
}

/** One day's takings by branch, cashier and method; the day and branch are in the URL (`?tab=cash-up&day=…`). */
function CashUp({ search, onSearchChange }: { search: PaymentSearch; onSearchChange: (next: PaymentSearch) => void }) {
  const today = useOrgToday();
  const day = search.day ?? today;
  const branchId = search.cashBranch ?? '';
  const setDay = (d: string) => onSearchChange({ ...search, day: d && d !== today ? d : undefined });
  const setBranchId = (b: string) => onSearchChange({ ...search, cashBranch: b || undefined });
  const input = { from: day, to: day, branchId: branchId || undefined };
  const cash = useQuery(trpc.payments.cashUp.queryOptions(input));
  const qs = queryString(input);

  return (
    <TitledCard
      title="Cash-up"
      actions={<FileButtons path="/api/payments/cash-up" query={qs} what="cash-up" />}
      contentClassName="space-y-4"
    >
      <div className="grid gap-3 sm:grid-cols-3">
        <FilterField label="Day">
          <DatePicker label="Day" value={day} max={today} onChange={setDay} />
        </FilterField>
        <FilterField label="Branch">
          <BranchSelect value={branchId} onChange={setBranchId} />
        </FilterField>
      </div>
      <QueryView query={cash} placeholder="h-40 w-full">
        {(cashUp) => (
          <>
            <SimpleTable
              label="Cash-up"
              heads={['Date', 'Branch', 'Cashier', 'Method', numeric('Payments'), numeric('Amount')]}
              rows={cashUp.rows}
              empty="No payments received."
            >
              {(r) => (
                <TableRow
                  key={`${r.date}-${r.branch?._id}-${r.cashier?._id}-${r.method}-${r.currency}`}
                  data-testid="cash-up-row"
                >
                  <TableCell>{formatDay(r.date)}</TableCell>
                  <TableCell>{r.branch?.name ?? 'No branch'}</TableCell>
                  <TableCell className="min-w-40">
                    <PersonName fullName={r.cashier?.fullName} handle={r.cashier?.username} />
                  </TableCell>
                  <TableCell>{PAYMENT_METHOD_LABELS[r.method]}</TableCell>
                  <TableCell className="text-right tabular-nums">{r.count}</TableCell>
                  <TableCell className="text-right tabular-nums">{formatMoney(r.amount, r.currency)}</TableCell>
                </TableRow>
              )}
            </SimpleTable>
            <div className="grid gap-4 sm:grid-cols-2">
              <div className="text-sm" data-testid="cash-up-totals">
                <p className="font-medium">Totals</p>
                <MoneyList items={cashUp.totals} empty={formatMoney(0)} />
              </div>
              <div className="text-sm">
                <p className="font-medium">By method</p>
                <MethodLines items={cashUp.byMethod} empty="—" />
              </div>
            </div>
            <div className="grid gap-4 sm:grid-cols-2">
              <div className="text-sm" data-testid="cash-up-refunds">
                <p className="font-medium">Refunded (cash out)</p>
                <MethodLines items={cashUp.refunds} empty="No refunds." />
              </div>
              <div className="text-sm" data-testid="cash-up-net">
                <p className="font-medium">Net (collected less refunded)</p>
                <MethodLines items={cashUp.net} empty="—" />
              </div>
            </div>
            <CashUpTills day={day} branchId={branchId || undefined} />
            {cashUp.voids.length > 0 && (
              <div className="text-sm">
                <p className="font-medium">Voided (not counted)</p>
                <ul className="list-disc pl-5">
                  {cashUp.voids.map((v) => (
                    <li key={v._id}>
                      {v.receiptNumber} — {formatMoney(v.amount, v.currency)}, voided {formatDateTime(v.voidedAt)} by{' '}
                      {v.voidedBy ?? 'Unknown'}: {v.voidReason}
                    </li>
                  ))}
                </ul>
              </div>
            )}
          </>
        )}
      </QueryView>
    </TitledCard>
  );
}
