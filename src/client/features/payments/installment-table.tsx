import type { ReactNode } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { TitledCard } from '@/components/titled-card';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatDate, formatDay, formatMoney } from '@shared/format';
import type { TInstallment } from '@shared/schemas/installments.output';

/** The Mark as Paid / Mark as Unpaid column, for admins (useInstallmentToggle). */
export interface InstallmentToggle {
  toggle: (installment: TInstallment, number?: number) => void;
  /** The dialog the switch opened (Record payment, or the unmark confirmation), in the record's currency. */
  renderDialog?: (currency: string) => ReactNode;
  /** The installment whose switch is on its way to the server. */
  pendingId: string | null;
  /** Every switch off, e.g. on a completed enrolment. */
  disabled?: boolean;
}

function InstallmentState({ installment: i, currency }: { installment: TInstallment; currency: string }) {
  // Overdue is the server's word (docs/money.md#overdue): its time zone, not the browser's.
  const part = !i.isPaid && i.amountPaid > 0;
  const [variant, text] = i.isPaid
    ? (['success', 'Paid'] as const)
    : i.isOverdue
      ? (['destructive', 'Overdue'] as const)
      : part
        ? (['warning', 'Part paid'] as const)
        : (['warning', 'Pending'] as const);
  return (
    <span className="flex flex-wrap items-center gap-1">
      <Badge variant={variant} data-testid="installment-state">
        {text}
      </Badge>
      {part && (
        <span className="text-xs text-muted-foreground" data-testid="installment-left">
          {formatMoney(i.amount - i.amountPaid, currency)} left
        </span>
      )}
    </span>
  );
}

/**
 * The installments of an enrolment or a booking: amount, paid so far, due date, state and paid
 * date, scrolling inside its card on a narrow screen, with the paid switch when `toggle` is given.
 */
export function InstallmentsCard({
  title,
  currency,
  installments,
  toggle,
}: {
  title: string;
  currency: string;
  installments: TInstallment[];
  toggle?: InstallmentToggle;
}) {
  return (
    <TitledCard title={title}>
      <Table containerClassName="max-h-[500px] overflow-y-auto rounded-md border" aria-label="Installments">
        <TableHeader className="sticky top-0 z-10 bg-background">
          <TableRow>
            <TableHead className="w-12">#</TableHead>
            <TableHead className="text-right">Amount ({currency})</TableHead>
            <TableHead className="text-right">Paid so far</TableHead>
            <TableHead>Due Date</TableHead>
            <TableHead>Status</TableHead>
            <TableHead>Paid Date</TableHead>
            {toggle && <TableHead className="w-40 text-right">Action</TableHead>}
          </TableRow>
        </TableHeader>
        <TableBody>
          {installments.map((i, n) => (
            <TableRow key={i._id} data-testid="installment-row" data-paid={i.isPaid}>
              <TableCell className="text-muted-foreground">{n + 1}</TableCell>
              <TableCell className="text-right tabular-nums">{formatMoney(i.amount, currency)}</TableCell>
              <TableCell className="text-right tabular-nums" data-testid="installment-paid">
                {formatMoney(i.amountPaid, currency)}
              </TableCell>
              <TableCell>{formatDay(i.dueDate)}</TableCell>
              <TableCell>
                <InstallmentState installment={i} currency={currency} />
              </TableCell>
              <TableCell>{i.isPaid ? formatDate(i.paidAt) : '—'}</TableCell>
              {toggle && (
                <TableCell className="text-right">
                  <Button
                    size="sm"
                    variant={i.isPaid ? 'outline' : 'default'}
                    disabled={toggle.disabled || toggle.pendingId === i._id}
                    onClick={() => toggle.toggle(i, n + 1)}
                  >
                    {i.isPaid ? 'Mark as Unpaid' : 'Mark as Paid'}
                  </Button>
                </TableCell>
              )}
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {toggle?.renderDialog?.(currency)}
    </TitledCard>
  );
}
