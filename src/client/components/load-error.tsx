import { CircleAlertIcon } from 'lucide-react';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { loadErrorMessage } from '@/lib/errors';

/** docs/product.md#messages: list screens show 'Error: {message}' when loading fails. */
export function LoadError({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  return (
    <Alert variant="destructive">
      <CircleAlertIcon />
      <AlertDescription className="flex flex-wrap items-center justify-between gap-2">
        <span>Error: {loadErrorMessage(error)}</span>
        {onRetry && (
          <Button size="sm" variant="outline" onClick={onRetry}>
            Try again
          </Button>
        )}
      </AlertDescription>
    </Alert>
  );
}
