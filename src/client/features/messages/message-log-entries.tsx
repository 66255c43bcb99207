/** One delivery-log entry, as a table row on a desk and a card on a phone, with its Resend. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { RotateCwIcon } from 'lucide-react';
import { toast } from 'sonner';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { TableCell, TableRow } from '@/components/ui/table';
import { explainedMessage } from '@/lib/errors';
import { trpc } from '@/lib/trpc';
import { formatDateTime } from '@shared/format';
import type { MessageEntityType, MessageStatus, TMessageItem } from '@shared/schemas/messages';
import { CHANNEL_LABELS, EVENT_LABELS, LANGUAGE_LABELS, reasonText, STATUS_LABELS } from './message-queries';

const STATUS_BADGE: Record<MessageStatus, 'secondary' | 'warning' | 'success' | 'destructive' | 'outline'> = {
  scheduled: 'outline',
  queued: 'secondary',
  waiting: 'warning',
  sent: 'success',
  failed: 'destructive',
  skipped: 'secondary',
  withdrawn: 'outline',
};

const ENTITY_LABELS: Record<MessageEntityType, string> = {
  appointment: 'Appointment',
  class_session: 'Class session',
  attendance: 'Attendance',
  installment: 'Installment',
  payment: 'Payment',
  user: 'Person',
};

/** Every message from the moment it is planned, newest first, filtered on the server. Admins only. */
/** Resending a failed message: it goes back to the queue, and the log shows its new state. */
function useResend(m: TMessageItem) {
  const queryClient = useQueryClient();
  return useMutation(
    trpc.messages.resend.mutationOptions({
      onSuccess: async () => {
        toast.success(`The ${CHANNEL_LABELS[m.channel]} to ${m.recipient.fullName} is queued again.`);
        await queryClient.invalidateQueries(trpc.messages.pathFilter());
      },
      onError: (err) => toast.error(explainedMessage(err, 'Failed to resend the message. Please try again.')),
    }),
  );
}

export interface EntryProps {
  message: TMessageItem;
  onRecipient: () => void;
}

function ResendButton({ message: m }: { message: TMessageItem }) {
  const resend = useResend(m);
  if (m.status !== 'failed') return null;
  return (
    <Button
      size="sm"
      variant="outline"
      onClick={() => resend.mutate({ id: m._id })}
      disabled={resend.isPending}
      aria-label={`Resend the ${EVENT_LABELS[m.event].toLowerCase()} to ${m.recipient.fullName}`}
    >
      {resend.isPending ? <Spinner /> : <RotateCwIcon />}
      Resend
    </Button>
  );
}

function Recipient({ message: m, onRecipient }: EntryProps) {
  return (
    <>
      <button
        type="button"
        className="text-left underline-offset-4 hover:underline"
        title="Show only this person's messages"
        onClick={onRecipient}
      >
        {m.recipient.fullName}
      </button>
      <div className="text-xs text-muted-foreground">
        {CHANNEL_LABELS[m.channel]} · {LANGUAGE_LABELS[m.language]}
      </div>
      <div className="text-xs break-all text-muted-foreground">{m.to ?? 'no address'}</div>
    </>
  );
}

function Status({ message: m }: { message: TMessageItem }) {
  const reason = reasonText(m.reason);
  return (
    <>
      <Badge variant={STATUS_BADGE[m.status]}>{STATUS_LABELS[m.status]}</Badge>
      <div className="mt-1 grid gap-0.5 text-xs text-muted-foreground" data-testid="message-status-detail">
        {(m.status === 'scheduled' || m.status === 'waiting' || m.status === 'queued') && (
          <span>
            {m.status === 'waiting' ? 'Quiet hours; goes at ' : 'Goes at '}
            {formatDateTime(m.sendAt)}
          </span>
        )}
        {m.sentAt && <span>Sent {formatDateTime(m.sentAt)}</span>}
        {reason && (
          <span className={m.status === 'failed' ? 'text-destructive [overflow-wrap:anywhere]' : undefined}>
            {m.status === 'failed' ? `Error: ${reason}` : reason}
          </span>
        )}
        <span>
          {m.attempts} {m.attempts === 1 ? 'attempt' : 'attempts'}
        </span>
        {m.providerId && <span className="[overflow-wrap:anywhere]">Provider id {m.providerId}</span>}
      </div>
    </>
  );
}

function Text({ message: m }: { message: TMessageItem }) {
  return (
    <details className="text-sm">
      <summary className="line-clamp-3 cursor-pointer [overflow-wrap:anywhere]">
        {m.subject ? <span className="font-medium">{m.subject}: </span> : null}
        {m.text}
      </summary>
      <p className="mt-2 whitespace-pre-wrap [overflow-wrap:anywhere]" data-testid="message-text">
        {m.text}
      </p>
    </details>
  );
}

const rowData = (m: TMessageItem) => ({
  'data-testid': 'message-row',
  'data-message-id': m._id,
  'data-status': m.status,
});

export function LogRow({ message: m, onRecipient }: EntryProps) {
  return (
    <TableRow {...rowData(m)} className="align-top">
      <TableCell className="whitespace-normal tabular-nums">{formatDateTime(m.createdAt)}</TableCell>
      <TableCell className="whitespace-normal">
        <div className="font-medium">{EVENT_LABELS[m.event]}</div>
        <RecordLink message={m} />
      </TableCell>
      <TableCell className="whitespace-normal">
        <Recipient message={m} onRecipient={onRecipient} />
      </TableCell>
      <TableCell className="whitespace-normal">
        <Status message={m} />
      </TableCell>
      <TableCell className="min-w-56 whitespace-normal">
        <Text message={m} />
      </TableCell>
      <TableCell>
        <ResendButton message={m} />
      </TableCell>
    </TableRow>
  );
}

export function LogCard({ message: m, onRecipient }: EntryProps) {
  return (
    <li {...rowData(m)} className="grid gap-2 rounded-md border p-3 text-sm">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <div className="font-medium">{EVENT_LABELS[m.event]}</div>
          <div className="text-xs text-muted-foreground tabular-nums">{formatDateTime(m.createdAt)}</div>
        </div>
        <RecordLink message={m} />
      </div>
      <div>
        <Recipient message={m} onRecipient={onRecipient} />
      </div>
      <div>
        <Status message={m} />
      </div>
      <Text message={m} />
      <div>
        <ResendButton message={m} />
      </div>
    </li>
  );
}

/**
 * The record a message is about. A person has a screen of their own; the rest are shown on the
 * person's screen (appointments and classes under Records, installments and payments on the
 * Statement tab), since they have no screen of their own to open by id.
 */
function RecordLink({ message: m }: { message: TMessageItem }) {
  const label = ENTITY_LABELS[m.entityType];
  const userId = m.entityType === 'user' ? m.entityId : m.recipient._id;
  const statement = m.entityType === 'installment' || m.entityType === 'payment' || m.event === 'statement';
  return (
    <Link
      to="/users/$userId"
      params={{ userId }}
      search={statement ? { tab: 'statement' } : {}}
      className="text-xs underline underline-offset-4 hover:text-primary"
      data-testid="message-record-link"
      aria-label={`${label} of ${m.recipient.fullName}`}
    >
      {label}
    </Link>
  );
}
