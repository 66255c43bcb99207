import { Link } from '@tanstack/react-router';
import { TriangleAlertIcon } from 'lucide-react';
import { Button } from '@/components/ui/button';

/** docs/product.md#messages: the unmatched-route (and unexpected failure) fallback. */
export function AppErrorPage({ error }: { error?: unknown }) {
  const detail = error instanceof Error ? error.message : undefined;
  return (
    <div className="flex min-h-[60vh] items-center justify-center p-6">
      <div className="max-w-md text-center">
        <div className="mx-auto mb-4 flex size-12 items-center justify-center rounded-full bg-destructive/10 text-destructive">
          <TriangleAlertIcon className="size-6" />
        </div>
        <h1 className="text-xl font-semibold">Unexpected Application Error!</h1>
        <p className="mt-2 text-sm text-muted-foreground">{detail ?? 'The page you are looking for does not exist.'}</p>
        <Button asChild variant="outline" className="mt-6">
          <Link to="/">Back to the dashboard</Link>
        </Button>
      </div>
    </div>
  );
}
