import { useMutation, useQueryClient } from '@tanstack/react-query';
import { createElement, useState } from 'react';
import { trpc } from '@/lib/trpc';
import { toastOutcome } from '@/lib/toast-outcome';
import type { TInstallment } from '@shared/schemas/installments.output';
import type { InstallmentToggle } from './installment-table';
import { invalidateMoney } from './payments-table';
import { MarkPaidDialog, UnmarkConfirm } from './mark-dialogs';

const UPDATED = 'Installment status updated!';

/**
 * Mark as Paid / Mark as Unpaid on an enrolment's or a booking's installment. Either writes to the
 * payments ledger (docs/payments.md), so every figure that reads it is refetched, the Payments
 * panel on the same screen too.
 */
export function useInstallmentToggle(kind: 'enrollment' | 'booking', id: string): InstallmentToggle {
  const queryClient = useQueryClient();
  const refresh = () => invalidateMoney(queryClient);
  const enrollment = useMutation(
    trpc.enrollments.payInstallment.mutationOptions(
      toastOutcome(UPDATED, 'Failed to update installment status', refresh),
    ),
  );
  const booking = useMutation(
    trpc.bookings.setInstallmentPaid.mutationOptions(
      toastOutcome(UPDATED, 'Failed to update installment', (data) => {
        queryClient.setQueryData(trpc.bookings.get.queryKey({ id }), data);
        // The booking's new state is on screen already, so its switches are free at once; the
        // payments, lists and history around it refresh behind (a second switch's refresh cancels
        // this one's, so an older answer never lands last).
        void refresh();
      }),
    ),
  );
  const mutation = kind === 'enrollment' ? enrollment : booking;
  // The enrolment input also takes a position instead of an id, so its id is typed loosely.
  const pendingId = mutation.isPending ? mutation.variables.installmentId : null;
  // Neither switch acts at once: Mark as Paid opens Record payment for the item (the cashier names
  // the method), Mark as Unpaid asks to confirm the receipts it voids (mark-dialogs.tsx).
  const [asking, setAsking] = useState<{ installment: TInstallment; number: number } | null>(null);
  const close = () => setAsking(null);
  return {
    toggle: (i: TInstallment, number = 1) => setAsking({ installment: i, number }),
    pendingId: typeof pendingId === 'string' ? pendingId : null,
    renderDialog: (currency: string) =>
      asking === null
        ? null
        : asking.installment.isPaid
          ? createElement(UnmarkConfirm, {
              kind,
              id,
              installment: asking.installment,
              currency,
              pending: mutation.isPending,
              onCancel: close,
              onConfirm: () =>
                mutation.mutate({ id, installmentId: asking.installment._id, isPaid: false }, { onSettled: close }),
            })
          : createElement(MarkPaidDialog, { kind, id, currency, ...asking, onClose: close }),
  };
}
