import { useMutation } from '@tanstack/react-query';
import { CheckIcon, PencilIcon, XIcon } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { Textarea } from '@/components/ui/textarea';
import { toastOutcome } from '@/lib/toast-outcome';
import { trpc } from '@/lib/trpc';
import { formatDateTime } from '@shared/format';
import { MISSING_INFO, missingInfo, type BookingSectionProps } from './booking-queries';

/** One row per session 1..maxSessions (empty when no note is stored); only completed ones take a note. */
export function SessionNotes({ booking: b, editable, onSaved }: BookingSectionProps) {
  const [editing, setEditing] = useState<{ session: number; text: string } | null>(null);
  const save = useMutation(
    trpc.bookings.saveNote.mutationOptions(
      toastOutcome('Session note saved!', 'Failed to save note', (data) => {
        setEditing(null);
        onSaved(data);
      }),
    ),
  );
  const sessions = Array.from({ length: b.treatmentId.maxSessions }, (_, i) => i + 1);
  const noteOf = (n: number) => b.sessionNotes.find((s) => s.sessionNumber === n);
  const startEdit = (n: number) => {
    if (missingInfo(b)) {
      toast.error(MISSING_INFO);
      return;
    }
    setEditing({ session: n, text: noteOf(n)?.note ?? '' });
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle>Session Notes</CardTitle>
      </CardHeader>
      {/* Scrolls on its own: focusable so that a keyboard can scroll it too. */}
      <CardContent
        className="grid max-h-[500px] gap-3 overflow-y-auto"
        tabIndex={0}
        role="region"
        aria-label="Session notes"
      >
        {sessions.map((n) => {
          const completed = n <= b.sessionsCompleted;
          const note = noteOf(n);
          const isEditing = editing?.session === n;
          return (
            <div key={n} className="grid gap-2 rounded-md border p-3" data-testid="session-note" data-session={n}>
              <div className="flex flex-wrap items-center justify-between gap-2">
                <div className="flex items-center gap-2 text-sm font-medium">
                  Session {n}
                  {completed ? <Badge variant="success">Completed</Badge> : <Badge variant="secondary">Pending</Badge>}
                  {note?.date && (
                    <span className="text-xs font-normal text-muted-foreground">{formatDateTime(note.date)}</span>
                  )}
                </div>
                {editable && completed && !isEditing && (
                  <Button
                    size="sm"
                    variant="ghost"
                    onClick={() => startEdit(n)}
                    aria-label={`Edit note for session ${n}`}
                  >
                    <PencilIcon /> Edit note
                  </Button>
                )}
              </div>
              {isEditing ? (
                <div className="grid gap-2">
                  <Textarea
                    aria-label={`Note for session ${n}`}
                    value={editing.text}
                    maxLength={5000}
                    onChange={(e) => setEditing({ session: n, text: e.target.value })}
                    autoFocus
                  />
                  <div className="flex gap-2">
                    <Button
                      size="sm"
                      onClick={() => save.mutate({ id: b._id, sessionNumber: n, note: editing.text })}
                      disabled={save.isPending}
                    >
                      {save.isPending ? <Spinner /> : <CheckIcon />} Save note
                    </Button>
                    <Button size="sm" variant="outline" onClick={() => setEditing(null)} disabled={save.isPending}>
                      <XIcon /> Cancel
                    </Button>
                  </div>
                </div>
              ) : (
                <p className="text-sm whitespace-pre-wrap text-muted-foreground" data-testid="session-note-text">
                  {note?.note || (completed ? 'No note yet.' : 'Not completed yet.')}
                </p>
              )}
            </div>
          );
        })}
      </CardContent>
    </Card>
  );
}
