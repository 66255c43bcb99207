import { useMutation, useQuery } from '@tanstack/react-query';
import { MailIcon } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { DateRangeFilter } from '@/components/filter-field';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { QueryView } from '@/components/query-view';
import { numeric, SimpleTable } from '@/components/simple-table';
import { TableCell, TableRow } from '@/components/ui/table';
import { explainedMessage } from '@/lib/errors';
import { trpc } from '@/lib/trpc';
import { formatDay, formatMoney } from '@shared/format';
import { FileButtons } from '@/components/file-buttons';
import { TitledCard } from '@/components/titled-card';
import { queryString } from '@/lib/download';
import { STATEMENT_KIND_LABELS } from '@shared/schemas/statements';

/**
 * A person's account statement (docs/users.md#statement): the totals per currency, every charge,
 * payment and void with its running balance, a From/To filter, and the PDF and e-mail buttons.
 */
export function UserStatement({ userId }: { userId: string }) {
  const [from, setFrom] = useState<string | undefined>();
  const [to, setTo] = useState<string | undefined>();
  const range = { from, to };
  const statement = useQuery(trpc.statements.get.queryOptions({ userId, ...range }));
  const email = useMutation(
    trpc.statements.email.mutationOptions({
      onSuccess: (r) => toast.success(r.message),
      onError: (err) => toast.error(explainedMessage(err, 'Failed to e-mail the statement')),
    }),
  );
  const qs = queryString(range);

  return (
    <TitledCard
      title="Statement"
      actions={
        <FileButtons path={`/api/users/${userId}/statement`} query={qs} what="statement" formats={['pdf']}>
          <Button
            variant="outline"
            size="sm"
            disabled={email.isPending}
            onClick={() => email.mutate({ userId, ...range })}
          >
            <MailIcon /> E-mail
          </Button>
        </FileButtons>
      }
      contentClassName="space-y-4"
    >
      <div className="flex flex-wrap gap-3">
        <DateRangeFilter from={{ value: from, onChange: setFrom }} to={{ value: to, onChange: setTo }} />
      </div>
      <QueryView query={statement} placeholder="h-40 w-full">
        {(account) => (
          <>
            <div className="grid gap-2 sm:grid-cols-2" data-testid="statement-totals">
              {account.totals.length === 0 && <p className="text-sm text-muted-foreground">Nothing charged or paid.</p>}
              {account.totals.map((t) => (
                <dl key={t.currency} className="grid grid-cols-2 gap-x-4 gap-y-1 rounded-md border p-3 text-sm">
                  <dt className="text-muted-foreground">Charged</dt>
                  <dd className="text-right tabular-nums">{formatMoney(t.charged, t.currency)}</dd>
                  <dt className="text-muted-foreground">Paid</dt>
                  <dd className="text-right tabular-nums">{formatMoney(t.paid, t.currency)}</dd>
                  <dt className="font-medium">Balance</dt>
                  <dd className="text-right font-medium tabular-nums" data-testid="statement-balance">
                    {formatMoney(t.balance, t.currency)}
                  </dd>
                  <dt className="text-muted-foreground">Overdue today</dt>
                  <dd className="text-right tabular-nums">{formatMoney(t.overdue, t.currency)}</dd>
                </dl>
              ))}
            </div>
            <SimpleTable
              label="Statement lines"
              containerClassName="max-h-[500px] rounded-md border"
              heads={['Date', 'Description', numeric('Amount'), numeric('Balance')]}
              rows={account.lines}
              empty="Nothing in this period."
            >
              {(l, i) => (
                <TableRow key={`${i}-${l.date}-${l.kind}-${l.receiptNumber ?? ''}`} data-testid="statement-line">
                  <TableCell className="align-top">{formatDay(l.date)}</TableCell>
                  <TableCell className="min-w-32 whitespace-normal">
                    {l.kind !== 'charge' && (
                      <Badge variant={l.kind === 'void' ? 'destructive' : 'secondary'} className="mr-2">
                        {STATEMENT_KIND_LABELS[l.kind]}
                      </Badge>
                    )}
                    {l.description}
                    {l.receiptNumber && (
                      <span className="block font-mono text-xs text-muted-foreground">{l.receiptNumber}</span>
                    )}
                  </TableCell>
                  <TableCell className="text-right align-top tabular-nums">
                    {formatMoney(l.amount, l.currency)}
                  </TableCell>
                  <TableCell className="text-right align-top tabular-nums">
                    {formatMoney(l.balance, l.currency)}
                  </TableCell>
                </TableRow>
              )}
            </SimpleTable>
          </>
        )}
      </QueryView>
    </TitledCard>
  );
}
