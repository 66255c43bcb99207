import { useMutation } from '@tanstack/react-query';
import { CheckIcon, MinusIcon, PencilIcon, PlusIcon, XIcon } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { TitledCard } from '@/components/titled-card';
import { Progress } from '@/components/ui/progress';
import { Spinner } from '@/components/ui/spinner';
import { toastOutcome } from '@/lib/toast-outcome';
import { trpc } from '@/lib/trpc';
import { MISSING_INFO, missingInfo, type BookingSectionProps } from './booking-queries';

/** Sessions completed out of the treatment's maximum, with an Edit Sessions mode (minus, plus, save, cancel). */
export function SessionProgress({ booking: b, editable, onSaved }: BookingSectionProps) {
  const [draft, setDraft] = useState<number | null>(null);
  const max = b.treatmentId.maxSessions;
  const save = useMutation(
    trpc.bookings.setSessions.mutationOptions(
      toastOutcome('Sessions updated!', 'Failed to update sessions', (data) => {
        setDraft(null);
        onSaved(data);
      }),
    ),
  );
  const value = draft ?? b.sessionsCompleted;
  const startEdit = () => {
    if (missingInfo(b)) {
      toast.error(MISSING_INFO);
      return;
    }
    setDraft(b.sessionsCompleted);
  };
  return (
    <TitledCard
      title="Session Progress"
      contentClassName="grid gap-3"
      actions={
        editable &&
        draft === null && (
          <Button size="sm" variant="outline" onClick={startEdit}>
            <PencilIcon /> Edit Sessions
          </Button>
        )
      }
    >
      {draft === null ? (
        <p className="text-sm" data-testid="sessions-completed">
          {b.sessionsCompleted} of {max} sessions completed
        </p>
      ) : (
        <div className="flex flex-wrap items-center gap-3">
          <Button
            size="icon"
            variant="outline"
            aria-label="Fewer sessions"
            disabled={value <= 0 || save.isPending}
            onClick={() => setDraft(value - 1)}
          >
            <MinusIcon />
          </Button>
          <span className="min-w-20 text-center text-sm font-medium" data-testid="sessions-draft">
            {value} / {max}
          </span>
          <Button
            size="icon"
            variant="outline"
            aria-label="More sessions"
            disabled={value >= max || save.isPending}
            onClick={() => setDraft(value + 1)}
          >
            <PlusIcon />
          </Button>
          <Button
            size="sm"
            onClick={() => save.mutate({ id: b._id, sessionsCompleted: value })}
            disabled={save.isPending}
          >
            {save.isPending ? <Spinner /> : <CheckIcon />} Save
          </Button>
          <Button size="sm" variant="outline" onClick={() => setDraft(null)} disabled={save.isPending}>
            <XIcon /> Cancel
          </Button>
        </div>
      )}
      <Progress value={max > 0 ? Math.round((b.sessionsCompleted / max) * 100) : 0} aria-label="Session progress" />
    </TitledCard>
  );
}
