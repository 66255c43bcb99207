import { useQuery } from '@tanstack/react-query';
import { LoadError } from '@/components/load-error';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { trpc } from '@/lib/trpc';
import { PersonName } from '@/components/person-name';
import { MoneyList } from '../payments/payment-common';

/** The cash-up's tills of the day (docs/payments.md#tills): float, expected, counted, difference, who closed. */
export function CashUpTills({ day, branchId }: { day: string; branchId?: string }) {
  const list = useQuery(trpc.tills.list.queryOptions({ from: day, to: day, branchId, page: 1, pageSize: 200 }));
  if (list.isPending) return <Skeleton className="h-16 w-full" />;
  if (list.isError) return <LoadError error={list.error} onRetry={() => void list.refetch()} />;
  return (
    <div className="space-y-2 text-sm">
      <p className="font-medium">Tills</p>
      <Table containerClassName="rounded-md border" aria-label="Tills">
        <TableHeader>
          <TableRow>
            <TableHead>Cashier</TableHead>
            <TableHead>Branch</TableHead>
            <TableHead className="text-right">Float</TableHead>
            <TableHead className="text-right">Expected</TableHead>
            <TableHead className="text-right">Counted</TableHead>
            <TableHead className="text-right">Difference</TableHead>
            <TableHead>Closed by</TableHead>
            <TableHead>Note</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {list.data.data.length === 0 && (
            <TableRow>
              <TableCell colSpan={8} className="text-center text-muted-foreground">
                No tills were opened.
              </TableCell>
            </TableRow>
          )}
          {list.data.data.map((t) => (
            <TableRow key={t._id} data-testid="cash-up-till">
              <TableCell>
                <PersonName fullName={t.cashier.fullName} handle={t.cashier.username} />
              </TableCell>
              <TableCell>{t.branch.name}</TableCell>
              <TableCell className="text-right tabular-nums">
                <MoneyList items={t.openingFloat} />
              </TableCell>
              <TableCell className="text-right tabular-nums">
                <MoneyList items={t.expected} />
              </TableCell>
              <TableCell className="text-right tabular-nums">
                {t.counted ? <MoneyList items={t.counted} /> : 'Open'}
              </TableCell>
              <TableCell className="text-right tabular-nums">
                {t.difference ? <MoneyList items={t.difference} /> : '—'}
              </TableCell>
              <TableCell>{t.closedBy?.username ?? '—'}</TableCell>
              <TableCell className="max-w-48 break-words">{t.note ?? ''}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}
