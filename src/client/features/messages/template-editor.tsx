import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import { FormError, FormFooter } from '@/components/form-feedback';
import { CardQuery } from '@/components/card-query';
import { FilterField } from '@/components/filter-field';
import { NativeSelect, choicesOf } from '@/components/native-select';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { Spinner } from '@/components/ui/spinner';
import { Textarea } from '@/components/ui/textarea';
import { explainedMessage, isClientError } from '@/lib/errors';
import { trpc } from '@/lib/trpc';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { formatDateTime } from '@shared/format';
import {
  MESSAGE_CHANNELS,
  MESSAGE_EVENTS,
  MESSAGE_LANGUAGES,
  MESSAGE_PLACEHOLDERS,
  ZTemplateInput,
  type MessageChannel,
  type MessageEvent,
  type MessageLanguage,
  type TMessageItem,
  type TPreviewAnswer,
  type TTemplateItem,
} from '@shared/schemas/messages';
import { CHANNEL_LABELS, EVENT_LABELS, LANGUAGE_LABELS, messageTemplatesOptions } from './message-queries';
import { LabelledField } from '@/components/labelled-field';
import { onSubmitted } from '@/lib/utils';

interface Choice {
  event: MessageEvent;
  channel: MessageChannel;
  language: MessageLanguage;
}

/** The three choices that name one template, each a select with its label above it. */
const PICKERS = [
  { key: 'event', label: 'Message', className: 'w-60', choices: choicesOf(MESSAGE_EVENTS, EVENT_LABELS) },
  { key: 'channel', label: 'Channel', className: 'w-32', choices: choicesOf(MESSAGE_CHANNELS, CHANNEL_LABELS) },
  { key: 'language', label: 'Language', className: 'w-32', choices: choicesOf(MESSAGE_LANGUAGES, LANGUAGE_LABELS) },
] as const satisfies readonly { key: keyof Choice; label: string; className: string; choices: unknown }[];

const same = (t: TTemplateItem, c: Choice) =>
  t.event === c.event && t.channel === c.channel && t.language === c.language;

/**
 * One template at a time: pick the event, channel and language, edit the text with placeholders,
 * see it filled in from a real record (or sample values) with its SMS length, and save it.
 */
export function TemplateEditorCard({ canEdit, canReadLog }: { canEdit: boolean; canReadLog: boolean }) {
  const templates = useQuery(messageTemplatesOptions());
  const [choice, setChoice] = useState<Choice>({ event: 'appointment_reminder', channel: 'sms', language: 'en' });
  const pick = <K extends keyof Choice>(key: K, value: Choice[K]) => setChoice((c) => ({ ...c, [key]: value }));

  return (
    <Card>
      <CardHeader>
        <CardTitle>Templates</CardTitle>
        <CardDescription>
          One text per message, channel and language. A language without its own text sends the English one.
          {!canEdit && ' Only admins can change the texts.'}
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-wrap items-end gap-3">
        {PICKERS.map((p) => (
          <FilterField key={p.key} label={p.label}>
            <NativeSelect
              aria-label={p.label}
              className={p.className}
              value={choice[p.key]}
              onChange={(e) => pick(p.key, e.target.value as Choice[typeof p.key])}
              choices={p.choices}
            />
          </FilterField>
        ))}
      </CardContent>
      <CardQuery query={templates} placeholders={['h-9 w-full', 'h-40 w-full']}>
        {(data) => (
          <TemplateForm
            // A new choice, or the server's saved text, starts the form over.
            key={`${choice.event}/${choice.channel}/${choice.language}/${JSON.stringify(data.find((t) => same(t, choice)) ?? null)}`}
            choice={choice}
            templates={data}
            canEdit={canEdit}
            canReadLog={canReadLog}
          />
        )}
      </CardQuery>
    </Card>
  );
}

function TemplateForm({
  choice,
  templates,
  canEdit,
  canReadLog,
}: {
  choice: Choice;
  templates: TTemplateItem[];
  canEdit: boolean;
  canReadLog: boolean;
}) {
  const queryClient = useQueryClient();
  const own = templates.find((t) => same(t, choice));
  const english = templates.find((t) => same(t, { ...choice, language: 'en' }));
  const start = own ?? english;
  const [subject, setSubject] = useState(start?.subject ?? '');
  const [body, setBody] = useState(start?.body ?? '');
  const [error, setError] = useState<string | null>(null);
  const [entityId, setEntityId] = useState('');
  const bodyRef = useRef<HTMLTextAreaElement>(null);
  const email = choice.channel === 'email';

  const save = useMutation(
    trpc.messageTemplates.save.mutationOptions({
      onSuccess: async () => {
        toast.success('Template saved.');
        await queryClient.invalidateQueries(trpc.messageTemplates.pathFilter());
      },
      onError: (err) => {
        const message = explainedMessage(err, 'Failed to save the template. Please try again.');
        if (isClientError(err)) setError(message);
        else toast.error(message);
      },
    }),
  );

  const insert = (placeholder: string) => {
    const el = bodyRef.current;
    const token = `{${placeholder}}`;
    const at = el ? el.selectionStart : body.length;
    const end = el ? el.selectionEnd : body.length;
    setBody(body.slice(0, at) + token + body.slice(end));
    setError(null);
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(at + token.length, at + token.length);
    });
  };

  const submit = () => {
    const parsed = ZTemplateInput.safeParse({ ...choice, subject: email ? subject : undefined, body });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Please check the template.');
      return;
    }
    save.mutate([parsed.data]);
  };

  return (
    <form noValidate onSubmit={onSubmitted(submit)}>
      <CardContent className="grid gap-6 lg:grid-cols-2">
        <fieldset className="grid content-start gap-4" disabled={!canEdit}>
          {!own && choice.language !== 'en' && (
            <p
              className="rounded-md border border-dashed p-3 text-sm text-muted-foreground"
              data-testid="fallback-note"
            >
              No {LANGUAGE_LABELS[choice.language]} text yet: {LANGUAGE_LABELS[choice.language]} readers get the English
              text shown here. Write the translation over it and save.
            </p>
          )}
          {email && (
            <LabelledField id="template-subject" label="Subject">
              <Input
                id="template-subject"
                value={subject}
                onChange={(e) => {
                  setSubject(e.target.value);
                  setError(null);
                }}
              />
            </LabelledField>
          )}
          <LabelledField id="template-body" label="Text">
            <Textarea
              id="template-body"
              ref={bodyRef}
              rows={email ? 10 : 5}
              value={body}
              aria-invalid={Boolean(error)}
              onChange={(e) => {
                setBody(e.target.value);
                setError(null);
              }}
            />
          </LabelledField>
          {canEdit && (
            <div className="grid gap-2">
              <span className="text-sm text-muted-foreground">Insert a placeholder</span>
              <div className="flex flex-wrap gap-1.5">
                {MESSAGE_PLACEHOLDERS.map((p) => (
                  <Button key={p} type="button" variant="outline" size="sm" onClick={() => insert(p)}>
                    {`{${p}}`}
                  </Button>
                ))}
              </div>
            </div>
          )}
          <FormError error={error} />
        </fieldset>
        <Preview choice={choice} body={body} entityId={entityId} onEntityChange={setEntityId} canReadLog={canReadLog} />
      </CardContent>
      {canEdit && (
        <FormFooter pending={save.isPending} pendingText="Saving...">
          Save template
        </FormFooter>
      )}
    </form>
  );
}

/**
 * The record the preview reads for a message in the log: the appointment, class session or payment
 * it is about; for the installment notices and the statement, the person.
 */
function previewRecordOf(m: TMessageItem): string {
  const own =
    m.event.startsWith('appointment_') ||
    m.event === 'class_cancelled' ||
    m.event === 'class_moved' ||
    m.event === 'absence' ||
    m.event === 'payment_received';
  return own ? m.entityId : m.recipient._id;
}

/**
 * The text as it would go, filled in by the server from the record chosen (one this message was
 * planned for, from the log) or from sample values; for SMS, its length in the network's terms.
 */
function Preview({
  choice,
  body,
  entityId,
  onEntityChange,
  canReadLog,
}: {
  choice: Choice;
  body: string;
  entityId: string;
  onEntityChange: (id: string) => void;
  canReadLog: boolean;
}) {
  const text = useDebouncedValue(body, 300);
  const records = useQuery({
    ...trpc.messages.list.queryOptions({ event: choice.event, limit: 20 }),
    enabled: canReadLog,
  });
  const seen = new Set<string>();
  const recent = (records.data?.data ?? [])
    .map((m) => ({ id: previewRecordOf(m), label: `${m.recipient.fullName} · ${formatDateTime(m.createdAt)}` }))
    .filter((r) => !seen.has(r.id) && seen.add(r.id));
  // The preview is a POST (it takes a whole text): asked again once the text stops changing.
  const preview = useMutation(trpc.messageTemplates.preview.mutationOptions());
  // The last answer stays on screen while the next is asked for; only the latest call's answer lands.
  const [shown, setShown] = useState<TPreviewAnswer | null>(null);
  const { mutate } = preview;
  useEffect(() => {
    if (text.trim()) mutate({ ...choice, body: text, entityId: entityId || undefined }, { onSuccess: setShown });
  }, [mutate, choice, text, entityId]);

  return (
    <section aria-labelledby="template-preview-title" className="grid content-start gap-3">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h3 id="template-preview-title" className="text-sm font-medium">
          Preview
        </h3>
        <label className="grid gap-1 text-sm">
          <span className="text-muted-foreground">Filled in from</span>
          <NativeSelect
            aria-label="Filled in from"
            className="w-64 max-w-full"
            value={entityId}
            onChange={(e) => onEntityChange(e.target.value)}
            empty="Sample values"
            choices={recent.map((r) => ({ value: r.id, label: r.label }))}
          />
        </label>
      </div>
      <div
        className="min-h-32 rounded-md border bg-muted/30 p-3 text-sm whitespace-pre-wrap [overflow-wrap:anywhere]"
        data-testid="template-preview"
        aria-live="polite"
      >
        {!text.trim() ? (
          <span className="text-muted-foreground">Write a text to see it here.</span>
        ) : preview.isError ? (
          <span className="text-destructive">{explainedMessage(preview.error, 'The preview could not be made.')}</span>
        ) : shown ? (
          shown.text
        ) : (
          <Skeleton className="h-16 w-full" />
        )}
      </div>
      {choice.channel === 'sms' && shown && !preview.isError && text.trim() && (
        <div className="flex flex-wrap items-center gap-2 text-sm" data-testid="sms-length">
          <Badge variant="outline">{shown.characters} characters</Badge>
          <Badge variant={shown.segments > 1 ? 'warning' : 'outline'}>
            {shown.segments} {shown.segments === 1 ? 'segment' : 'segments'}
          </Badge>
          <Badge variant="outline">{shown.encoding}</Badge>
          {preview.isPending && <Spinner className="text-muted-foreground" />}
        </div>
      )}
      {choice.channel === 'sms' && (
        <p className="text-xs text-muted-foreground">
          One SMS holds 160 GSM-7 characters (153 each when split); Sinhala, Tamil or any other character outside GSM-7
          makes it UCS-2, 70 characters (67 when split).
        </p>
      )}
    </section>
  );
}
