import { useQuery } from '@tanstack/react-query';
import { QueryView } from '@/components/query-view';
import { numeric, SimpleTable } from '@/components/simple-table';
import { TableCell, TableRow } from '@/components/ui/table';
import { trpc } from '@/lib/trpc';
import { PersonName } from '@/components/person-name';
import { MoneyList } from '../payments/payment-common';

/** The cash-up's tills of the day (docs/payments.md#tills): float, expected, counted, difference, who closed. */
export function CashUpTills({ day, branchId }: { day: string; branchId?: string }) {
  const list = useQuery(trpc.tills.list.queryOptions({ from: day, to: day, branchId, page: 1, pageSize: 200 }));
  return (
    <QueryView query={list} placeholder="h-16 w-full">
      {(tills) => (
        <div className="space-y-2 text-sm">
          <p className="font-medium">Tills</p>
          <SimpleTable
            label="Tills"
            heads={[
              'Cashier',
              'Branch',
              numeric('Float'),
              numeric('Expected'),
              numeric('Counted'),
              numeric('Difference'),
              'Closed by',
              'Note',
            ]}
            rows={tills.data}
            empty="No tills were opened."
          >
            {(t) => (
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
                <TableCell>
                  <PersonName fullName={t.closedBy?.fullName} handle={t.closedBy?.username} fallback="—" />
                </TableCell>
                <TableCell className="max-w-48 break-words">{t.note ?? ''}</TableCell>
              </TableRow>
            )}
          </SimpleTable>
        </div>
      )}
    </QueryView>
  );
}
