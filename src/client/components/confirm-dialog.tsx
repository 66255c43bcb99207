import { useRef, type ReactNode } from 'react';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { buttonVariants } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';

/**
 * A controlled confirmation (deletes). The dialog stays open while `pending`; the caller closes
 * it (sets open false) when the mutation settles.
 */
export function ConfirmDialog({
  open,
  onOpenChange,
  title = 'Confirm Deletion',
  description,
  confirmLabel = 'Delete',
  pending = false,
  confirmDisabled = false,
  destructive = true,
  onConfirm,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title?: string;
  description: ReactNode;
  confirmLabel?: string;
  pending?: boolean;
  /** Holds back only the confirm button (say, while what it would do is still being looked up). */
  confirmDisabled?: boolean;
  destructive?: boolean;
  onConfirm: () => void;
}) {
  // The dialog is opened by state, not by a trigger of its own: it gives the focus back to what
  // had it (the button that asked) when it closes, so a keyboard user carries on from there.
  const returnTo = useRef<HTMLElement | null>(null);
  return (
    <AlertDialog open={open} onOpenChange={(next) => !pending && onOpenChange(next)}>
      <AlertDialogContent
        onOpenAutoFocus={() => {
          returnTo.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
        }}
        onCloseAutoFocus={(e) => {
          if (!returnTo.current?.isConnected) return;
          e.preventDefault();
          returnTo.current.focus();
        }}
      >
        <AlertDialogHeader>
          <AlertDialogTitle>{title}</AlertDialogTitle>
          <AlertDialogDescription>{description}</AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={pending}>Cancel</AlertDialogCancel>
          <AlertDialogAction
            className={destructive ? buttonVariants({ variant: 'destructive' }) : undefined}
            disabled={pending || confirmDisabled}
            onClick={(e) => {
              // Keep the dialog open until the caller's mutation settles.
              e.preventDefault();
              onConfirm();
            }}
          >
            {pending && <Spinner />}
            {confirmLabel}
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
