import { useMutation, useQueryClient } from '@tanstack/react-query';
import { PhoneIcon } from 'lucide-react';
import { useId, useState } from 'react';
import { usePortalText } from '../i18n';
import { errorCode, trpc, type RouterOutputs } from '../trpc';
import { Badge, Button, buttonClass, Dialog, Field, inputClass, Notice, Spinner, type Tone } from './ui';

export type PortalAppointment = RouterOutputs['portal']['booking']['upcoming'][number];

const STATUS_TONES: Record<PortalAppointment['status'], Tone> = {
  scheduled: 'info',
  confirmed: 'info',
  arrived: 'good',
  completed: 'good',
  cancelled: 'neutral',
  no_show: 'bad',
};

const LIVE = new Set(['scheduled', 'confirmed', 'arrived']);

/**
 * One appointment. A live one far enough ahead has a cancel button; inside the cut-off the button
 * becomes a call to the clinic (its number is on it), since only the clinic may cancel then.
 */
export function AppointmentItem({ appointment: a, onMove }: { appointment: PortalAppointment; onMove?: () => void }) {
  const { t, f } = usePortalText();
  const [open, setOpen] = useState(false);
  const live = LIVE.has(a.status);
  return (
    <li className="grid gap-2 px-3 py-3 text-sm" data-testid="portal-appointment">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <p className="font-medium">{f.dateTime(a.start)}</p>
          <p className="text-muted-foreground">
            {t('treatments.with', { name: a.practitioner.fullName })} · {a.branch.name}
            {a.room && ` · ${a.room.name}`}
          </p>
        </div>
        <Badge tone={STATUS_TONES[a.status]}>{t(`appointment.status.${a.status}`)}</Badge>
      </div>
      {live && (
        <div className="flex flex-wrap gap-2">
          {a.canCancel ? (
            <Button kind="outline" onClick={() => setOpen(true)}>
              {t('appointment.cancel')}
            </Button>
          ) : (
            <CallToCancel phone={a.callToCancel} />
          )}
          {onMove && a.canCancel && (
            <Button kind="ghost" onClick={onMove}>
              {t('appointment.move')}
            </Button>
          )}
        </div>
      )}
      <CancelDialog appointment={a} open={open} onClose={() => setOpen(false)} />
    </li>
  );
}

function CallToCancel({ phone }: { phone: string | null }) {
  const { t } = usePortalText();
  if (!phone) return <p className="text-muted-foreground">{t('appointment.callToCancelNoPhone')}</p>;
  return (
    <a href={`tel:${phone.replace(/[^\d+]/g, '')}`} className={buttonClass('outline')}>
      <PhoneIcon aria-hidden="true" />
      {t('appointment.callToCancel', { phone })}
    </a>
  );
}

function CancelDialog({
  appointment: a,
  open,
  onClose,
}: {
  appointment: PortalAppointment;
  open: boolean;
  onClose: () => void;
}) {
  const { t, f } = usePortalText();
  const id = useId();
  const queryClient = useQueryClient();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const cancel = useMutation(
    trpc.portal.cancelAppointment.mutationOptions({
      onSuccess: () => {
        setDone(true);
        void queryClient.invalidateQueries({ queryKey: trpc.portal.pathKey() });
      },
      onError: (err) => {
        // Inside the cut-off the server refuses (409) and names whom to call: the list is
        // reloaded so the button turns into that call.
        if (errorCode(err) === 'CONFLICT') {
          setError(t('appointment.tooLate'));
          void queryClient.invalidateQueries({ queryKey: trpc.portal.pathKey() });
        } else setError(t('app.failed'));
      },
    }),
  );
  const close = () => {
    setError(null);
    setDone(false);
    setReason('');
    onClose();
  };
  return (
    <Dialog open={open} onClose={close} title={done ? t('appointment.cancelled') : t('appointment.cancelTitle')}>
      {done ? (
        <>
          <Notice tone="success">{t('appointment.cancelled')}</Notice>
          <Button onClick={close}>{t('app.close')}</Button>
        </>
      ) : (
        <form
          className="grid gap-4"
          onSubmit={(e) => {
            e.preventDefault();
            setError(null);
            cancel.mutate({ id: a._id, reason: reason.trim() || undefined });
          }}
        >
          <p className="text-sm">
            {t('appointment.cancelText', { treatment: a.treatmentName, when: f.dateTime(a.start) })}
          </p>
          <Field id={`${id}-reason`} label={t('appointment.reason')}>
            <textarea
              id={`${id}-reason`}
              value={reason}
              maxLength={500}
              rows={3}
              onChange={(e) => setReason(e.target.value)}
              className={inputClass}
            />
          </Field>
          {error && <Notice tone="error">{error}</Notice>}
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button kind="outline" onClick={close}>
              {t('appointment.keep')}
            </Button>
            <Button kind="danger" type="submit" disabled={cancel.isPending}>
              {cancel.isPending && <Spinner />}
              {cancel.isPending ? t('appointment.cancelling') : t('appointment.confirmCancel')}
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
