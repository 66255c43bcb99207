import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { TIME_ZONE, usePortalText } from '../i18n';
import { refusalText } from '../refusals';
import { trpc } from '../trpc';
import { Button, Dialog, Field, inputClass, Notice, Spinner } from './ui';

/** The day `days` from now in the organisation's zone, as 'YYYY-MM-DD'. */
function dayFromNow(days: number, hours = 0): string {
  const at = new Date(Date.now() + days * 86_400_000 + hours * 3_600_000);
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: TIME_ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(at);
}

/**
 * Booking or moving an appointment oneself: a day within the portal's window, then one of the
 * free times the server offers for that day. The server applies every rule again on save.
 */
export function SlotPicker({
  open,
  onClose,
  bookingId,
  treatmentName,
  move,
  minNoticeHours,
  maxDaysAhead,
}: {
  open: boolean;
  onClose: () => void;
  bookingId: string;
  treatmentName: string;
  /** The appointment being moved; absent when booking a new one. */
  move?: { id: string };
  minNoticeHours: number;
  maxDaysAhead: number;
}) {
  const { t, f } = usePortalText();
  const id = useId();
  const queryClient = useQueryClient();
  const first = dayFromNow(0, minNoticeHours);
  const last = dayFromNow(maxDaysAhead);
  const [day, setDay] = useState(first);
  const [choice, setChoice] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);

  const slots = useQuery({
    ...trpc.portal.availability.queryOptions({ bookingId, from: day, to: day }),
    enabled: open && !done && day >= first && day <= last,
  });
  const onSuccess = () => {
    setDone(true);
    void queryClient.invalidateQueries({ queryKey: trpc.portal.pathKey() });
  };
  const onError = (err: unknown) => {
    // A refusal (the time was just taken, a rule) in the page's language, by its code.
    setError(refusalText(err));
    void slots.refetch();
  };
  const book = useMutation(trpc.portal.bookAppointment.mutationOptions({ onSuccess, onError }));
  const moveIt = useMutation(trpc.portal.moveAppointment.mutationOptions({ onSuccess, onError }));
  const pending = book.isPending || moveIt.isPending;

  const close = () => {
    setChoice(null);
    setError(null);
    setDone(false);
    onClose();
  };
  const save = () => {
    const slot = slots.data?.data.find((s) => `${s.start}|${s.practitioner._id}` === choice);
    if (!slot) {
      setError(t('appointment.chooseTime'));
      return;
    }
    setError(null);
    if (move) moveIt.mutate({ id: move.id, start: slot.start, practitionerId: slot.practitioner._id });
    else book.mutate({ bookingId, start: slot.start, practitionerId: slot.practitioner._id });
  };

  const title = move ? t('appointment.moveTitle') : t('appointment.bookTitle', { treatment: treatmentName });
  return (
    <Dialog open={open} onClose={close} title={title}>
      {done ? (
        <>
          <Notice tone="success">{move ? t('appointment.moved') : t('appointment.booked')}</Notice>
          <Button onClick={close}>{t('app.close')}</Button>
        </>
      ) : (
        <div className="grid gap-4">
          <Field id={`${id}-day`} label={t('appointment.day')}>
            <input
              id={`${id}-day`}
              type="date"
              min={first}
              max={last}
              value={day}
              onChange={(e) => {
                setDay(e.target.value);
                setChoice(null);
              }}
              className={inputClass}
            />
          </Field>
          <fieldset className="grid gap-2">
            <legend className="mb-1 text-sm font-medium">{t('appointment.times')}</legend>
            {slots.isFetching && !slots.data ? (
              <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
                <Spinner /> {t('appointment.loadingTimes')}
              </p>
            ) : !slots.data || slots.data.data.length === 0 ? (
              <p className="text-sm text-muted-foreground">{t('appointment.noTimes')}</p>
            ) : (
              <div className="grid max-h-64 grid-cols-1 gap-2 overflow-y-auto sm:grid-cols-2">
                {slots.data.data.map((s) => {
                  const value = `${s.start}|${s.practitioner._id}`;
                  return (
                    <label
                      key={value}
                      className="flex min-h-11 cursor-pointer items-center gap-2 rounded-md border px-3 text-sm has-[:checked]:border-primary has-[:checked]:bg-primary/5 has-[:focus-visible]:ring-[3px] has-[:focus-visible]:ring-ring/50"
                    >
                      <input
                        type="radio"
                        name={`${id}-slot`}
                        value={value}
                        checked={choice === value}
                        onChange={() => setChoice(value)}
                        className="size-4 accent-primary"
                      />
                      {t('appointment.timeWith', { time: f.time(s.start), name: s.practitioner.fullName })}
                    </label>
                  );
                })}
              </div>
            )}
          </fieldset>
          {error && <Notice tone="error">{error}</Notice>}
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button kind="outline" onClick={close}>
              {t('app.close')}
            </Button>
            <Button onClick={save} disabled={pending || !choice}>
              {pending && <Spinner />}
              {pending ? t('appointment.saving') : move ? t('appointment.confirmMove') : t('appointment.confirmBook')}
            </Button>
          </div>
        </div>
      )}
    </Dialog>
  );
}
