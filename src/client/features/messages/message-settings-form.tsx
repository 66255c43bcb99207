import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from 'sonner';
import { FormError, FormFooter } from '@/components/form-feedback';
import { CardQuery } from '@/components/card-query';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { explainedMessage, isClientError } from '@/lib/errors';
import { trpc } from '@/lib/trpc';
import {
  MESSAGE_CHANNELS,
  MESSAGE_EVENTS,
  ZMessageSettings,
  type MessageChannel,
  type MessageEvent,
  type TMessageSettings,
} from '@shared/schemas/messages';
import { CHANNEL_LABELS, EVENT_LABELS, messageSettingsOptions } from './message-queries';
import { LabelledField } from '@/components/labelled-field';
import { onSubmitted } from '@/lib/utils';
import { CheckboxField } from '@/components/checkbox-field';

/** Which events go out on which channel, when reminders go, and the quiet hours. Admins edit; staff read. */
export function MessageSettingsCard({ canEdit }: { canEdit: boolean }) {
  const current = useQuery(messageSettingsOptions());
  return (
    <Card>
      <CardHeader>
        <CardTitle>What is sent, and when</CardTitle>
        <CardDescription>
          {canEdit
            ? 'Switch each message on or off per channel. A switch applies to messages planned from now on; one switched off also stops those planned and not sent yet.'
            : 'Only admins can change these settings.'}
        </CardDescription>
      </CardHeader>
      <CardQuery query={current} placeholders={['h-48 w-full', 'h-9 w-full']}>
        {(data) => (
          // Keyed by the saved values: the form starts over from what the server now holds.
          <SettingsForm key={JSON.stringify(data)} saved={data} canEdit={canEdit} />
        )}
      </CardQuery>
    </Card>
  );
}

/** The form's own values: numbers are typed as text, the second reminder and quiet hours may be off. */
interface Draft {
  events: TMessageSettings['events'];
  firstReminder: string;
  secondReminder: string;
  dueSoonDays: string;
  quiet: boolean;
  quietStart: string;
  quietEnd: string;
}
type DraftField = 'firstReminder' | 'secondReminder' | 'dueSoonDays' | 'quiet';

function draftOf(s: TMessageSettings): Draft {
  return {
    events: s.events,
    firstReminder: String(s.reminderHours[0] ?? 24),
    secondReminder: s.reminderHours[1] === undefined ? '' : String(s.reminderHours[1]),
    dueSoonDays: String(s.dueSoonDays),
    quiet: s.quietHours !== null,
    quietStart: s.quietHours?.start ?? '20:00',
    quietEnd: s.quietHours?.end ?? '08:00',
  };
}

/** Text that is not a whole number stays text, so the shared schema names the problem. */
const asNumber = (v: string) => (/^\s*\d+\s*$/.test(v) ? Number(v) : v);

/** The issue's path in the shared schema, read as the field of this form that shows it. */
function fieldOf(path: readonly PropertyKey[]): DraftField | 'form' {
  const [head, index] = path;
  if (head === 'reminderHours') return index === 0 ? 'firstReminder' : 'secondReminder';
  if (head === 'dueSoonDays') return 'dueSoonDays';
  if (head === 'quietHours') return 'quiet';
  return 'form';
}

function SettingsForm({ saved, canEdit }: { saved: TMessageSettings; canEdit: boolean }) {
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<Draft>(() => draftOf(saved));
  const [errors, setErrors] = useState<Partial<Record<DraftField | 'form', string>>>({});
  const change = (patch: Partial<Draft>) => {
    setDraft((d) => ({ ...d, ...patch }));
    setErrors({});
  };
  const setSwitch = (event: MessageEvent, channel: MessageChannel, on: boolean) =>
    change({ events: { ...draft.events, [event]: { ...draft.events[event], [channel]: on } } });

  const save = useMutation(
    trpc.messageSettings.save.mutationOptions({
      onSuccess: async () => {
        toast.success('Message settings saved.');
        await queryClient.invalidateQueries(trpc.messageSettings.pathFilter());
      },
      onError: (err) => {
        const message = explainedMessage(err, 'Failed to save the message settings. Please try again.');
        if (isClientError(err)) setErrors({ form: message });
        else toast.error(message);
      },
    }),
  );

  const submit = () => {
    const parsed = ZMessageSettings.safeParse({
      events: draft.events,
      reminderHours: [draft.firstReminder, ...(draft.secondReminder.trim() ? [draft.secondReminder] : [])].map(
        asNumber,
      ),
      dueSoonDays: asNumber(draft.dueSoonDays),
      quietHours: draft.quiet ? { start: draft.quietStart, end: draft.quietEnd } : null,
    });
    if (!parsed.success) {
      const next: Partial<Record<DraftField | 'form', string>> = {};
      for (const issue of parsed.error.issues) next[fieldOf(issue.path)] ??= issue.message;
      setErrors(next);
      return;
    }
    save.mutate(parsed.data);
  };

  const error = (field: DraftField) =>
    errors[field] && (
      <p id={`msg-${field}-error`} role="alert" className="text-sm text-destructive">
        {errors[field]}
      </p>
    );
  const described = (field: DraftField) => (errors[field] ? `msg-${field}-error` : undefined);
  // A number typed as text, with its error (and a hint, which describes it while there is no error).
  const numberBox = (
    field: 'firstReminder' | 'secondReminder' | 'dueSoonDays',
    id: string,
    label: string,
    more: { placeholder?: string; hint?: string } = {},
  ) => (
    <LabelledField id={id} label={label} className="content-start">
      <Input
        id={id}
        inputMode="numeric"
        placeholder={more.placeholder}
        value={draft[field]}
        aria-invalid={Boolean(errors[field])}
        aria-describedby={described(field) ?? (more.hint ? `${id}-hint` : undefined)}
        onChange={(e) => change({ [field]: e.target.value })}
      />
      {more.hint && (
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {more.hint}
        </p>
      )}
      {error(field)}
    </LabelledField>
  );

  return (
    <form noValidate onSubmit={onSubmitted(submit)}>
      <CardContent className="grid gap-6">
        <Table containerClassName="rounded-md border" aria-label="Messages per event and channel">
          <TableHeader>
            <TableRow>
              <TableHead>Message</TableHead>
              {MESSAGE_CHANNELS.map((c) => (
                <TableHead key={c} className="w-20 text-center">
                  {CHANNEL_LABELS[c]}
                </TableHead>
              ))}
            </TableRow>
          </TableHeader>
          <TableBody>
            {MESSAGE_EVENTS.map((event) => (
              <TableRow key={event} data-testid="message-event-row" data-event={event}>
                <TableCell className="whitespace-normal">{EVENT_LABELS[event]}</TableCell>
                {MESSAGE_CHANNELS.map((channel) => (
                  <TableCell key={channel} className="text-center">
                    <input
                      type="checkbox"
                      className="size-4 accent-primary align-middle"
                      aria-label={`${EVENT_LABELS[event]} by ${CHANNEL_LABELS[channel]}`}
                      checked={draft.events[event][channel]}
                      disabled={!canEdit}
                      onChange={(e) => setSwitch(event, channel, e.target.checked)}
                    />
                  </TableCell>
                ))}
              </TableRow>
            ))}
          </TableBody>
        </Table>

        <fieldset className="grid gap-4 sm:grid-cols-3" disabled={!canEdit}>
          {numberBox('firstReminder', 'msg-first-reminder', 'First reminder (hours before)')}
          {numberBox('secondReminder', 'msg-second-reminder', 'Second reminder (hours before)', {
            placeholder: 'None',
            hint: 'Leave empty for one reminder only.',
          })}
          {numberBox('dueSoonDays', 'msg-due-soon', 'Due-soon notice (days before)')}
        </fieldset>

        <fieldset className="grid gap-3" disabled={!canEdit}>
          <CheckboxField
            label="Hold messages during quiet hours"
            checked={draft.quiet}
            onCheckedChange={(quiet) => change({ quiet })}
          />
          <p className="text-xs text-muted-foreground">
            A message due in quiet hours waits until they end; cancellation notices go at once.
          </p>
          {draft.quiet && (
            <div className="flex flex-wrap items-end gap-4">
              {(
                [
                  ['quietStart', 'Quiet from'],
                  ['quietEnd', 'Until'],
                ] as const
              ).map(([key, label]) => (
                <LabelledField key={key} id={`msg-${key}`} label={label}>
                  <Input
                    id={`msg-${key}`}
                    type="time"
                    className="w-32"
                    value={draft[key]}
                    aria-invalid={Boolean(errors.quiet)}
                    aria-describedby={described('quiet')}
                    onChange={(e) => change({ [key]: e.target.value })}
                  />
                </LabelledField>
              ))}
            </div>
          )}
          {error('quiet')}
        </fieldset>
        <FormError error={errors.form ?? null} />
      </CardContent>
      {canEdit && (
        <FormFooter pending={save.isPending} pendingText="Saving...">
          Save settings
        </FormFooter>
      )}
    </form>
  );
}
