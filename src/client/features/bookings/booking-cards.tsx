import type { ReactNode } from 'react';
import { Handle, PersonName } from '@/components/person-name';
import { DetailList, DetailRow } from '@/components/detail-list';
import { KeptName, TreatmentLink, UserLink } from '@/components/record-links';
import { TitledCard } from '@/components/titled-card';
import { Progress } from '@/components/ui/progress';
import { paymentCompletionPercentage, progressColor } from '@shared/booking-status';
import { formatDate, formatMoney } from '@shared/format';
import { capitalize, type Booking } from './booking-queries';
import { PaymentStatusBadge } from './payment-status-badge';

const BAR_COLOUR = { green: 'bg-success', orange: 'bg-warning', red: 'bg-destructive' } as const;
// The track carries the colour too, so an empty (0%) bar still reads red.
const TRACK_COLOUR = { green: 'bg-success/20', orange: 'bg-warning/20', red: 'bg-destructive/25' } as const;

function InfoCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <TitledCard title={title}>
      <DetailList className="items-center gap-y-3 [&_dd]:font-medium">{children}</DetailList>
    </TitledCard>
  );
}

/** The patient, leading to their user screen while the account exists. */
export function CustomerCard({ booking: b }: { booking: Booking }) {
  return (
    <InfoCard title="Customer Information">
      <DetailRow label="Patient username">
        <KeptName kept={b.deletedUsername ?? 'Unknown'}>
          {b.userId && (
            <UserLink id={b.userId._id}>
              <PersonName fullName={b.userId.fullName} handle={b.userId.username} />
            </UserLink>
          )}
        </KeptName>
      </DetailRow>
      <DetailRow label="Email">
        <Handle text={b.userId?.email ?? b.deletedEmail ?? 'Unknown'} />
      </DetailRow>
      <DetailRow label="Patient Type">{capitalize(b.userType)}</DetailRow>
    </InfoCard>
  );
}

/** The treatment (leading to it in the treatments list while it exists), price, period and payment state. */
export function TreatmentCard({ booking: b }: { booking: Booking }) {
  const name = b.treatmentId.treatmentName;
  return (
    <InfoCard title="Treatment Details">
      <DetailRow label="Treatment">
        <KeptName kept={name}>{b.treatmentId._id && <TreatmentLink name={name} />}</KeptName>
      </DetailRow>
      <DetailRow label="Total Price">
        <span data-testid="total-price">{formatMoney(b.price, b.currency)}</span>
      </DetailRow>
      {b.treatmentPeriod && (
        <DetailRow label="Treatment Period">
          {formatDate(b.treatmentPeriod.startDate)} – {formatDate(b.treatmentPeriod.endDate)}
        </DetailRow>
      )}
      <DetailRow label="Booked On">{formatDate(b.bookedOn)}</DetailRow>
      <DetailRow label="Payment Type">{capitalize(b.paymentType)}</DetailRow>
      <DetailRow label="Payment Status">
        <PaymentStatusBadge status={b.paymentStatus} />
      </DetailRow>
    </InfoCard>
  );
}

export function PaymentProgress({ booking: b }: { booking: Booking }) {
  const pct = paymentCompletionPercentage(b.installments, b.paymentStatus);
  const colour = progressColor(pct);
  return (
    <TitledCard title="Payment Progress" contentClassName="grid gap-2">
      <Progress
        value={pct}
        aria-label="Payment progress"
        data-testid="payment-progress"
        data-percent={pct}
        data-colour={colour}
        className={`h-3 ${TRACK_COLOUR[colour]}`}
        indicatorClassName={BAR_COLOUR[colour]}
      />
      <p className="text-sm text-muted-foreground">
        {pct}% paid ({b.installments.filter((i) => i.isPaid).length} of {b.installments.length} installments)
      </p>
    </TitledCard>
  );
}
