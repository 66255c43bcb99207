import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { toastOutcome } from '@/lib/toast-outcome';
import { trpc } from '@/lib/trpc';

/** Cancel and Delete of one booking (admins), each behind its confirmation. */
export function useBookingActions(id: string) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [confirm, setConfirm] = useState<'delete' | 'cancel' | null>(null);
  const close = () => setConfirm(null);
  const refreshList = () => queryClient.invalidateQueries(trpc.bookings.list.pathFilter());

  const remove = useMutation(
    trpc.bookings.delete.mutationOptions(
      toastOutcome(
        'Booking deleted successfully!',
        'Failed to delete booking',
        async () => {
          close();
          queryClient.removeQueries(trpc.bookings.get.queryFilter({ id }));
          await refreshList();
          await navigate({ to: '/treatment/all-book' });
        },
        close,
      ),
    ),
  );
  const cancel = useMutation(
    trpc.bookings.cancel.mutationOptions(
      toastOutcome(
        'Booking cancelled.',
        'Failed to cancel booking',
        async (data) => {
          close();
          queryClient.setQueryData(trpc.bookings.get.queryKey({ id }), data);
          await refreshList();
        },
        close,
      ),
    ),
  );

  return {
    confirm,
    ask: setConfirm,
    dialog: {
      open: confirm !== null,
      onOpenChange: (open: boolean) => !open && close(),
      pending: remove.isPending || cancel.isPending,
      title: confirm === 'cancel' ? 'Cancel Booking' : 'Confirm Deletion',
      confirmLabel: confirm === 'cancel' ? 'Cancel Booking' : 'Delete',
      description:
        confirm === 'cancel'
          ? 'The booking is kept but marked cancelled, and no longer counts as revenue.'
          : 'Are you sure you want to delete this booking? Its installments and notes go with it. This action cannot be undone.',
      onConfirm: () => (confirm === 'cancel' ? cancel.mutate({ id }) : remove.mutate({ id })),
    },
  };
}
