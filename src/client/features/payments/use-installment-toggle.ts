import { useMutation, useQueryClient } from '@tanstack/react-query';
import { trpc } from '@/lib/trpc';
import { toastOutcome } from '@/lib/toast-outcome';
import type { TInstallment } from '@shared/schemas/installments.output';
import type { InstallmentToggle } from './installment-table';
import { invalidateMoney } from './payments-table';

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
  return {
    toggle: (i: TInstallment) => mutation.mutate({ id, installmentId: i._id, isPaid: !i.isPaid }),
    pendingId: typeof pendingId === 'string' ? pendingId : null,
  };
}
