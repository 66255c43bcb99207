import { useMutation, useQueryClient } from '@tanstack/react-query';
import { PhoneIcon } from 'lucide-react';
import { useId, useState } from 'react';
import { usePortalText } from '../i18n';
import { refusalOf, refusalText } from '../refusals';
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
 * becomes a call to the clinic (its number is on it, in the page's language), since only the
 * clinic may cancel then: the appointment's `clinicPhone`, its branch's number or else the
 * organisation's. The server's own sentence (`callToCancel`) is English, so only whether it is
 * there is used.
 */
export function AppointmentItem({
  appointment: a,
  onMove,
  onCancelled,
}: {
  appointment: PortalAppointment;
  onMove?: () => void;
  onCancelled?: () => void;
}) {
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
            <CallToCancel phone={a.clinicPhone.trim()} />
          )}
          {onMove && a.canCancel && (
            <Button kind="ghost" onClick={onMove}>
              {t('appointment.move')}
            </Button>
          )}
        </div>
      )}
      <CancelDialog
        appointment={a}
        open={open}
        onClose={() => setOpen(false)}
        onCancelled={() => {
          setOpen(false);
          onCancelled?.();
        }}
      />
    </li>
  );
}

function CallToCancel({ phone }: { phone: string }) {
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
  onCancelled,
}: {
  appointment: PortalAppointment;
  open: boolean;
  onClose: () => void;
  onCancelled: () => void;
}) {
  const { t, f } = usePortalText();
  const id = useId();
  const queryClient = useQueryClient();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const cancel = useMutation(
    trpc.portal.cancelAppointment.mutationOptions({
      // The confirmation is the booking's (this item moves to the past appointments and remounts).
      onSuccess: () => {
        setReason('');
        onCancelled();
        void queryClient.invalidateQueries({ queryKey: trpc.portal.pathKey() });
      },
      onError: (err) => {
        // Inside the cut-off the server refuses (409): the list is reloaded so the button turns
        // into the call to the clinic.
        if (errorCode(err) === 'CONFLICT') {
          setError(refusalOf(err) ? refusalText(err) : t('appointment.tooLate'));
          void queryClient.invalidateQueries({ queryKey: trpc.portal.pathKey() });
        } else setError(refusalText(err));
      },
    }),
  );
  const close = () => {
    setError(null);
    setReason('');
    onClose();
  };
  return (
    <Dialog open={open} onClose={close} title={t('appointment.cancelTitle')}>
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
    </Dialog>
  );
}
