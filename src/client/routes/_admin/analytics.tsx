import { createFileRoute } from '@tanstack/react-router';
import { PlaceholderPage } from '@/components/placeholder-page';

export const Route = createFileRoute('/_admin/analytics')({
  component: () => <PlaceholderPage title="Analytics" />,
});
