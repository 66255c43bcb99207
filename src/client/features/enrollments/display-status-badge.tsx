import { Badge } from '@/components/ui/badge';
import type { DisplayStatus } from '@shared/enrollment-status';

const VARIANT = {
  'Pending Payment': 'warning',
  'Active (Partial)': 'secondary',
  'Active (Paid)': 'success',
  Completed: 'default',
} as const satisfies Record<DisplayStatus, string>;

/** docs/product.md#states's display status; the server derives it with the same shared function. */
export function DisplayStatusBadge({ status }: { status: DisplayStatus }) {
  return (
    <Badge variant={VARIANT[status]} data-testid="display-status">
      {status}
    </Badge>
  );
}
