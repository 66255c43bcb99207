import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { BadgePercentIcon, CircleSlashIcon } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { QueryView } from '@/components/query-view';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { TitledCard } from '@/components/titled-card';
import { FormDialog } from '@/components/form-dialog';
import { Textarea } from '@/components/ui/textarea';
import { useIsAdmin, useIsStaff } from '@/lib/auth';
import { explainedMessage } from '@/lib/errors';
import { trpc, type RouterOutputs } from '@/lib/trpc';
import { formatDateTime, formatMoney } from '@shared/format';
import { ADJUSTMENT_KIND_LABELS } from '@shared/adjustment-kinds';
import { invalidateMoney } from '@/features/payments/payments-table';
import { AdjustmentDialog, adjustedItemName, type AdjustableItem } from './adjustment-dialog';
import { LabelledField } from '@/components/labelled-field';

type Adjustment = RouterOutputs['adjustments']['get'];

const STATUS = {
  applied: ['success', 'Applied'],
  pending: ['warning', 'Pending approval'],
  revoked: ['secondary', 'Revoked'],
  rejected: ['destructive', 'Rejected'],
} as const;

/**
 * A record's discounts, scholarships and write-offs (docs/payments.md#adjustments): the actions
 * that give them, each entry with what it did to each item, and the admins' approve, reject and
 * revoke. A manager sees Discount / scholarship only while approval is on (theirs then waits).
 */
export function AdjustmentsPanel({
  record,
  currency,
  items,
  closed,
}: {
  record: { enrollmentId: string } | { bookingId: string };
  currency: string;
  items: AdjustableItem[];
  /** Why nothing can change any more (completed, cancelled), or null. */
  closed: string | null;
}) {
  const admin = useIsAdmin();
  const staff = useIsStaff();
  const settings = useQuery({ ...trpc.adjustments.settings.queryOptions(), enabled: staff && !admin });
  const list = useQuery(trpc.adjustments.list.queryOptions(record));
  const [open, setOpen] = useState<'discount' | 'write_off' | null>(null);
  const [deciding, setDeciding] = useState<{ a: Adjustment; action: 'approve' | 'reject' | 'revoke' } | null>(null);
  const canAsk = admin || Boolean(settings.data?.approvalRequired);

  return (
    <TitledCard
      title="Discounts and write-offs"
      testId="adjustments-panel"
      actions={
        <div className="flex flex-wrap gap-2">
          {canAsk && (
            <Button
              size="sm"
              variant="outline"
              disabled={Boolean(closed)}
              title={closed ?? undefined}
              onClick={() => setOpen('discount')}
            >
              <BadgePercentIcon /> Discount / scholarship
            </Button>
          )}
          {admin && (
            <Button
              size="sm"
              variant="outline"
              disabled={Boolean(closed)}
              title={closed ?? undefined}
              onClick={() => setOpen('write_off')}
            >
              <CircleSlashIcon /> Write off
            </Button>
          )}
        </div>
      }
    >
      <QueryView
        query={list}
        placeholder="h-16 w-full"
        empty={(rows) => rows.length === 0 && 'No discounts, scholarships or write-offs.'}
      >
        {(rows) => (
          <ul className="divide-y rounded-md border">
            {rows.map((a) => (
              <li key={a._id} className="space-y-1 p-3 text-sm" data-testid="adjustment-row" data-status={a.status}>
                <div className="flex flex-wrap items-center gap-2">
                  <span className="font-medium">
                    {ADJUSTMENT_KIND_LABELS[a.kind]}
                    {a.scheme && ` · ${a.scheme.name}`}
                    {a.percent !== null && ` · ${a.percent}%`}
                  </span>
                  <span className="tabular-nums" data-testid="adjustment-total">
                    {formatMoney(a.total, a.currency)}
                  </span>
                  <Badge variant={STATUS[a.status][0]}>{STATUS[a.status][1]}</Badge>
                  <div className="ml-auto flex gap-1">
                    {admin && a.status === 'pending' && (
                      <>
                        <Button size="sm" variant="outline" onClick={() => setDeciding({ a, action: 'approve' })}>
                          Approve
                        </Button>
                        <Button size="sm" variant="outline" onClick={() => setDeciding({ a, action: 'reject' })}>
                          Reject
                        </Button>
                      </>
                    )}
                    {admin && a.status === 'applied' && !closed && (
                      <Button size="sm" variant="outline" onClick={() => setDeciding({ a, action: 'revoke' })}>
                        Revoke
                      </Button>
                    )}
                  </div>
                </div>
                <p className="break-words">{a.reason}</p>
                <ul className="text-xs text-muted-foreground">
                  {a.items.map((i) => (
                    <li key={`${i.itemId}`}>
                      {adjustedItemName(i)}: {formatMoney(i.before, a.currency)} → {formatMoney(i.after, a.currency)}
                    </li>
                  ))}
                </ul>
                <p className="text-xs text-muted-foreground">
                  {a.status === 'pending' ? 'Asked' : 'Given'} by {a.createdBy.username} {formatDateTime(a.createdAt)}
                  {a.approvedBy &&
                    a.approvedBy.username !== a.createdBy.username &&
                    `; approved by ${a.approvedBy.username}`}
                  {a.status === 'rejected' && a.decisionNote && `; rejected: ${a.decisionNote}`}
                  {a.revokedBy &&
                    `; revoked by ${a.revokedBy.username} ${formatDateTime(a.revokedAt)}: ${a.revokeReason ?? ''}`}
                </p>
              </li>
            ))}
          </ul>
        )}
      </QueryView>
      {open && (
        <AdjustmentDialog record={record} mode={open} currency={currency} items={items} onClose={() => setOpen(null)} />
      )}
      {deciding && <DecisionDialog {...deciding} onClose={() => setDeciding(null)} />}
    </TitledCard>
  );
}

const DECISIONS = {
  approve: { title: 'Approve', label: 'Note', button: 'Approve', done: 'Approved and applied.' },
  reject: { title: 'Reject', label: 'Note', button: 'Reject', done: 'Rejected.' },
  revoke: { title: 'Revoke', label: 'Reason', button: 'Revoke', done: 'Revoked: the amounts are back.' },
} as const;

/** Approve or reject a request (with a note), or revoke an applied entry (with a reason). */
function DecisionDialog({
  a,
  action,
  onClose,
}: {
  a: Adjustment;
  action: 'approve' | 'reject' | 'revoke';
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const d = DECISIONS[action];
  const options = {
    onSuccess: async () => {
      toast.success(d.done);
      onClose();
      await Promise.all([invalidateMoney(queryClient), queryClient.invalidateQueries(trpc.adjustments.pathFilter())]);
    },
    onError: (err: unknown) => setError(explainedMessage(err, `Failed to ${action} the adjustment`)),
  };
  const approve = useMutation(trpc.adjustments.approve.mutationOptions(options));
  const reject = useMutation(trpc.adjustments.reject.mutationOptions(options));
  const revoke = useMutation(trpc.adjustments.revoke.mutationOptions(options));
  const busy = approve.isPending || reject.isPending || revoke.isPending;
  const submit = () => {
    if (!text.trim()) {
      setError(action === 'revoke' ? 'A reason is required to revoke an adjustment.' : 'A note is required.');
      return;
    }
    if (action === 'approve') approve.mutate({ id: a._id, note: text });
    else if (action === 'reject') reject.mutate({ id: a._id, note: text });
    else revoke.mutate({ id: a._id, reason: text });
  };
  return (
    <FormDialog
      title={
        <>
          {d.title} {ADJUSTMENT_KIND_LABELS[a.kind].toLowerCase()} of {formatMoney(a.total, a.currency)}
        </>
      }
      description={a.reason}
      error={error}
      pending={busy}
      submitLabel={d.button}
      submitVariant={action === 'approve' ? 'default' : 'destructive'}
      closeLabel="Cancel"
      noValidate
      onClose={onClose}
      onSubmit={submit}
    >
      <LabelledField id="decision-text" label={d.label}>
        <Textarea id="decision-text" maxLength={500} value={text} onChange={(e) => setText(e.target.value)} />
      </LabelledField>
    </FormDialog>
  );
}
