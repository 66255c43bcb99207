import { createFileRoute } from '@tanstack/react-router';
import { BatchDetailsPage } from '@/features/classes/batch-pages';

export const Route = createFileRoute('/_admin/batches/$batchId')({ component: BatchRoute });

function BatchRoute() {
  const { batchId } = Route.useParams();
  return <BatchDetailsPage batchId={batchId} />;
}
