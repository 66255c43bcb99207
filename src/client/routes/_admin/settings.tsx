import { createFileRoute } from '@tanstack/react-router';
import { currencyOptions, jobStatusOptions } from '@/features/settings/settings-queries';
import { SettingsPage } from '@/features/settings/settings-page';

export const Route = createFileRoute('/_admin/settings')({
  // Prefetch without throwing: a manager (or a failure) gets the screen's own message.
  loader: ({ context }) =>
    Promise.all([
      context.queryClient.prefetchQuery(currencyOptions()),
      context.queryClient.prefetchQuery(jobStatusOptions('all')),
    ]),
  component: SettingsPage,
});
