import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { AppointmentItem } from '../components/appointment-item';
import { InstallmentList } from '../components/installments';
import { ProgressBar, RecordHeading, RecordsScreen } from '../components/records';
import { SlotPicker } from '../components/slot-picker';
import { Button, Card, Detail, Notice } from '../components/ui';
import { usePortalText } from '../i18n';
import { trpc, type RouterOutputs } from '../trpc';

type Booking = RouterOutputs['portal']['bookings']['data'][number];
type Settings = RouterOutputs['portal']['settings'];

/**
 * My treatments: each booking's sessions, appointments and installments. Appointments may be
 * cancelled here up to the cut-off, and booked or moved when the clinic allows self-booking.
 */
export function TreatmentsScreen() {
  const { t } = usePortalText();
  const list = useQuery(trpc.portal.bookings.queryOptions());
  const settings = useQuery(trpc.portal.settings.queryOptions(undefined, { staleTime: 60_000 }));
  return (
    <RecordsScreen title={t('treatments.title')} none={t('treatments.none')} list={list}>
      {(b) => <BookingCard key={b._id} booking={b} settings={settings.data} />}
    </RecordsScreen>
  );
}

function BookingCard({ booking: b, settings }: { booking: Booking; settings: Settings | undefined }) {
  const { t, f } = usePortalText();
  const [picker, setPicker] = useState<{ move?: { id: string } } | null>(null);
  const [cancelled, setCancelled] = useState(false);
  const selfBooking = settings?.selfBooking === true && b.status === 'active';
  const done = Math.min(b.sessionsDone, b.maxSessions);
  return (
    <Card aria-labelledby={`booking-${b._id}`} data-testid="portal-booking">
      <RecordHeading
        id={`booking-${b._id}`}
        title={b.treatmentName}
        since={t('treatments.bookedOn', { date: f.day(b.bookedOn) })}
        status={t(`treatments.status.${b.status}`)}
        tone={b.status === 'active' ? 'info' : 'neutral'}
      />

      <div className="mt-3 grid gap-1 text-sm">
        <p className="font-medium">{t('treatments.sessionsDone', { done: f.number(done), count: b.maxSessions })}</p>
        <ProgressBar label={t('treatments.sessions')} value={done} max={b.maxSessions} />
      </div>

      <dl className="mt-3 grid gap-2">
        <Detail label={t('treatments.price')}>{f.money(b.price, b.currency)}</Detail>
        <Detail label={t('treatments.paid')}>{f.money(b.paidAmount, b.currency)}</Detail>
        <Detail label={t('treatments.outstanding')}>{f.money(b.outstandingAmount, b.currency)}</Detail>
      </dl>

      {b.status === 'cancelled' && (
        <p className="mt-3 text-sm text-muted-foreground">{t('treatments.cancelledBooking')}</p>
      )}

      {cancelled && (
        <div className="mt-3">
          <Notice tone="success">{t('appointment.cancelled')}</Notice>
        </div>
      )}

      <div className="mt-4 mb-2 flex flex-wrap items-center justify-between gap-2">
        <h3 className="text-sm font-semibold">{t('treatments.upcoming')}</h3>
        {selfBooking &&
          (b.sessionsRemaining > 0 ? (
            <Button onClick={() => setPicker({})}>{t('appointment.book')}</Button>
          ) : (
            <p className="text-sm text-muted-foreground">{t('appointment.noSessionsLeft')}</p>
          ))}
      </div>
      {b.upcoming.length === 0 ? (
        <p className="text-sm text-muted-foreground">{t('treatments.noUpcoming')}</p>
      ) : (
        <ul className="divide-y rounded-md border">
          {b.upcoming.map((a) => (
            <AppointmentItem
              key={a._id}
              appointment={a}
              onMove={selfBooking ? () => setPicker({ move: { id: a._id } }) : undefined}
              onCancelled={() => setCancelled(true)}
            />
          ))}
        </ul>
      )}

      <h3 className="mt-4 mb-2 text-sm font-semibold">{t('treatments.past')}</h3>
      {b.past.length === 0 ? (
        <p className="text-sm text-muted-foreground">{t('treatments.noPast')}</p>
      ) : (
        <ul className="divide-y rounded-md border">
          {b.past.map((a) => (
            <AppointmentItem key={a._id} appointment={a} />
          ))}
        </ul>
      )}

      <h3 className="mt-4 mb-2 text-sm font-semibold">{t('treatments.installments')}</h3>
      <InstallmentList installments={b.installments} currency={b.currency} emptyText={t('treatments.noInstallments')} />

      {settings && picker && (
        <SlotPicker
          open
          onClose={() => setPicker(null)}
          bookingId={b._id}
          treatmentName={b.treatmentName}
          move={picker.move}
          minNoticeHours={settings.minNoticeHours}
          maxDaysAhead={settings.maxDaysAhead}
        />
      )}
    </Card>
  );
}
