import { createFileRoute } from '@tanstack/react-router';
import { MessagesPage } from '@/features/messages/messages-page';
import {
  messageSettingsOptions,
  messageTemplatesOptions,
  validateMessagesSearch,
  type MessagesSearch,
} from '@/features/messages/message-queries';

/** /settings/messages, beside /settings rather than inside it (the trailing `_`): a page of its own. */
export const Route = createFileRoute('/_admin/settings_/messages')({
  validateSearch: validateMessagesSearch,
  // Prefetch without throwing: a failure gets the card's own message.
  loader: ({ context }) =>
    Promise.all([
      context.queryClient.prefetchQuery(messageSettingsOptions()),
      context.queryClient.prefetchQuery(messageTemplatesOptions()),
    ]),
  component: MessagesRoute,
});

function MessagesRoute() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <MessagesPage
      search={search}
      onSearchChange={(next: MessagesSearch) => void navigate({ search: next, replace: true })}
    />
  );
}
