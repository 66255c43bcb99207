import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { FileSpreadsheetIcon, FileTextIcon } from 'lucide-react';
import { useDeferredValue, useState, type ReactNode } from 'react';
import { LoadError } from '@/components/load-error';
import { NativeSelect } from '@/components/native-select';
import { PageHeader } from '@/components/page-header';
import { Pagination } from '@/components/pagination';
import { RequireRole, STAFF_ROLES } from '@/components/require-role';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { trpc } from '@/lib/trpc';
import { formatDateTime, formatDay, formatMoney } from '@shared/format';
import type { PaymentMethod } from '@shared/payment-kinds';
import {
  BranchSelect,
  downloadFile,
  MoneyList,
  PAYMENT_METHOD_LABELS,
  PAYMENT_METHODS,
  queryString,
} from './payment-common';
import { PaymentsTable } from './payments-table';
import { withCursor } from '@/lib/keyset';

const PAGE_SIZE = 25;

/** The ledger for managers, admins and superadmins: list, totals, Excel, cash-up (docs/payments.md). */
export function PaymentsPage() {
  return (
    <div>
      <PageHeader title="Payments" description="Every payment received, with its receipt." />
      <RequireRole roles={STAFF_ROLES}>
        <Tabs defaultValue="list">
          <TabsList>
            <TabsTrigger value="list">Payments</TabsTrigger>
            <TabsTrigger value="cash-up">Cash-up</TabsTrigger>
          </TabsList>
          <TabsContent value="list">
            <PaymentList />
          </TabsContent>
          <TabsContent value="cash-up">
            <CashUp />
          </TabsContent>
        </Tabs>
      </RequireRole>
    </div>
  );
}

function Field({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div className="space-y-1">
      <Label htmlFor={id}>{label}</Label>
      {children}
    </div>
  );
}

function PaymentList() {
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [branchId, setBranchId] = useState('');
  const [method, setMethod] = useState<PaymentMethod | ''>('');
  const [status, setStatus] = useState<'valid' | 'void' | ''>('');
  const [searchText, setSearchText] = useState('');
  const search = useDeferredValue(searchText.trim());
  const [page, setPage] = useState(1);
  const filters = {
    from: from || undefined,
    to: to || undefined,
    branchId: branchId || undefined,
    method: method || undefined,
    status: status || undefined,
    search: search || undefined,
  };
  const list = useQuery({
    ...trpc.payments.list.queryOptions(
      withCursor({ ...filters, page, pageSize: PAGE_SIZE, sortDir: 'desc' as const }, trpc.payments.list.pathKey()),
    ),
    placeholderData: keepPreviousData,
  });
  // Every filter change starts again from the first page.
  const change =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v);
      setPage(1);
    };

  return (
    <Card>
      <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-2">
        <CardTitle>Payments</CardTitle>
        <Button
          variant="outline"
          size="sm"
          onClick={() =>
            void downloadFile(`/api/payments/excel${queryString(filters)}`, 'payments (Excel)', 'payments.xlsx')
          }
        >
          <FileSpreadsheetIcon /> Export Excel
        </Button>
      </CardHeader>
      <CardContent className="space-y-4">
        <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-6">
          <Field id="pay-from" label="From">
            <Input id="pay-from" type="date" value={from} onChange={(e) => change(setFrom)(e.target.value)} />
          </Field>
          <Field id="pay-to" label="To">
            <Input id="pay-to" type="date" value={to} onChange={(e) => change(setTo)(e.target.value)} />
          </Field>
          <Field id="pay-branch" label="Branch">
            <BranchSelect id="pay-branch" value={branchId} onChange={change(setBranchId)} />
          </Field>
          <Field id="pay-method" label="Method">
            <NativeSelect
              id="pay-method"
              value={method}
              onChange={(e) => change(setMethod)(e.target.value as PaymentMethod | '')}
            >
              <option value="">All methods</option>
              {PAYMENT_METHODS.map((m) => (
                <option key={m} value={m}>
                  {PAYMENT_METHOD_LABELS[m]}
                </option>
              ))}
            </NativeSelect>
          </Field>
          <Field id="pay-status" label="Status">
            <NativeSelect
              id="pay-status"
              value={status}
              onChange={(e) => change(setStatus)(e.target.value as 'valid' | 'void' | '')}
            >
              <option value="">All</option>
              <option value="valid">Valid</option>
              <option value="void">Void</option>
            </NativeSelect>
          </Field>
          <Field id="pay-search" label="Search">
            <Input
              id="pay-search"
              type="search"
              placeholder="Receipt, payer, course…"
              value={searchText}
              onChange={(e) => change(setSearchText)(e.target.value)}
            />
          </Field>
        </div>
        {list.isPending ? (
          <Skeleton className="h-40 w-full" />
        ) : list.isError ? (
          <LoadError error={list.error} onRetry={() => void list.refetch()} />
        ) : (
          <>
            <div className="flex flex-wrap gap-4 text-sm" data-testid="payment-totals">
              <span className="text-muted-foreground">Total of valid payments:</span>
              <MoneyList items={list.data.totals} empty={formatMoney(0)} />
            </div>
            <PaymentsTable payments={list.data.items} showPayer />
            <Pagination page={page} pageSize={PAGE_SIZE} total={list.data.total} onPageChange={setPage} />
          </>
        )}
      </CardContent>
    </Card>
  );
}

function CashUp() {
  const today = new Date().toLocaleDateString('en-CA');
  const [day, setDay] = useState(today);
  const [branchId, setBranchId] = useState('');
  const input = { from: day || undefined, to: day || undefined, branchId: branchId || undefined };
  const cash = useQuery(trpc.payments.cashUp.queryOptions(input));
  const qs = queryString(input);

  return (
    <Card>
      <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-2">
        <CardTitle>Cash-up</CardTitle>
        <div className="flex gap-2">
          <Button
            variant="outline"
            size="sm"
            onClick={() => void downloadFile(`/api/payments/cash-up/excel${qs}`, 'cash-up (Excel)', 'cash-up.xlsx')}
          >
            <FileSpreadsheetIcon /> Excel
          </Button>
          <Button
            variant="outline"
            size="sm"
            onClick={() => void downloadFile(`/api/payments/cash-up/pdf${qs}`, 'cash-up (PDF)', 'cash-up.pdf')}
          >
            <FileTextIcon /> PDF
          </Button>
        </div>
      </CardHeader>
      <CardContent className="space-y-4">
        <div className="grid gap-3 sm:grid-cols-3">
          <Field id="cash-day" label="Day">
            <Input id="cash-day" type="date" value={day} onChange={(e) => setDay(e.target.value)} />
          </Field>
          <Field id="cash-branch" label="Branch">
            <BranchSelect id="cash-branch" value={branchId} onChange={setBranchId} />
          </Field>
        </div>
        {cash.isPending ? (
          <Skeleton className="h-40 w-full" />
        ) : cash.isError ? (
          <LoadError error={cash.error} onRetry={() => void cash.refetch()} />
        ) : (
          <>
            <Table containerClassName="rounded-md border" aria-label="Cash-up">
              <TableHeader>
                <TableRow>
                  <TableHead>Date</TableHead>
                  <TableHead>Branch</TableHead>
                  <TableHead>Cashier</TableHead>
                  <TableHead>Method</TableHead>
                  <TableHead className="text-right">Payments</TableHead>
                  <TableHead className="text-right">Amount</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {cash.data.rows.length === 0 && (
                  <TableRow>
                    <TableCell colSpan={6} className="text-center text-muted-foreground">
                      No payments received.
                    </TableCell>
                  </TableRow>
                )}
                {cash.data.rows.map((r) => (
                  <TableRow
                    key={`${r.date}-${r.branch?._id}-${r.cashier?._id}-${r.method}-${r.currency}`}
                    data-testid="cash-up-row"
                  >
                    <TableCell>{formatDay(r.date)}</TableCell>
                    <TableCell>{r.branch?.name ?? 'No branch'}</TableCell>
                    <TableCell>{r.cashier?.username ?? 'Unknown'}</TableCell>
                    <TableCell>{PAYMENT_METHOD_LABELS[r.method]}</TableCell>
                    <TableCell className="text-right tabular-nums">{r.count}</TableCell>
                    <TableCell className="text-right tabular-nums">{formatMoney(r.amount, r.currency)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
            <div className="grid gap-4 sm:grid-cols-2">
              <div className="text-sm" data-testid="cash-up-totals">
                <p className="font-medium">Totals</p>
                <MoneyList items={cash.data.totals} empty={formatMoney(0)} />
              </div>
              <div className="text-sm">
                <p className="font-medium">By method</p>
                {cash.data.byMethod.length === 0
                  ? '—'
                  : cash.data.byMethod.map((m) => (
                      <p key={`${m.method}-${m.currency}`}>
                        {PAYMENT_METHOD_LABELS[m.method]}: {formatMoney(m.amount, m.currency)} ({m.count})
                      </p>
                    ))}
              </div>
            </div>
            {cash.data.voids.length > 0 && (
              <div className="text-sm">
                <p className="font-medium">Voided (not counted)</p>
                <ul className="list-disc pl-5">
                  {cash.data.voids.map((v) => (
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
      </CardContent>
    </Card>
  );
}
