import { usePortalText } from '../i18n';
import type { RouterOutputs } from '../trpc';
import { Badge, type Tone } from './ui';

type Installment = RouterOutputs['portal']['enrollments']['data'][number]['installments'][number];

/**
 * An installment schedule as a list (a table would scroll sideways on a phone): number, due date,
 * amount, and what was paid of it, part payments included.
 */
export function InstallmentList({
  installments,
  currency,
  emptyText,
}: {
  installments: Installment[];
  currency: string;
  emptyText: string;
}) {
  const { t, f } = usePortalText();
  if (installments.length === 0) return <p className="text-sm text-muted-foreground">{emptyText}</p>;
  return (
    <ul className="divide-y rounded-md border">
      {installments.map((i) => {
        const [tone, label]: [Tone, string] = i.isPaid
          ? ['good', t('installments.paid')]
          : i.isOverdue
            ? ['bad', t('installments.overdue')]
            : i.partPaid
              ? ['warn', t('installments.partPaid')]
              : ['neutral', t('installments.open')];
        return (
          <li key={i._id} className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 px-3 py-2 text-sm">
            <div className="min-w-0">
              <p className="font-medium">{t('installments.number', { n: f.number(i.installmentNumber) })}</p>
              <p className="text-muted-foreground">{t('installments.due', { date: f.day(i.dueDate) })}</p>
            </div>
            <div className="grid justify-items-end gap-1 text-right">
              <p className="font-medium">{f.money(i.amount, currency)}</p>
              <Badge tone={tone}>{label}</Badge>
            </div>
            {i.partPaid && !i.isPaid && (
              <p className="w-full text-muted-foreground">
                {t('installments.partText', {
                  paid: f.money(i.amountPaid, currency),
                  amount: f.money(i.amount, currency),
                })}
              </p>
            )}
          </li>
        );
      })}
    </ul>
  );
}
