import { Link } from '@tanstack/react-router';
import { ChevronLeftIcon } from 'lucide-react';
import { PageHeader } from '@/components/page-header';
import { ADMIN_ROLES, RequireRole } from '@/components/require-role';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useIsAdmin } from '@/lib/auth';
import { MessageLog } from './message-log';
import type { MessageTab, MessagesSearch } from './message-queries';
import { MessageSettingsCard } from './message-settings-form';
import { TemplateEditorCard } from './template-editor';

/**
 * Settings → Messages: what is sent on which channel and when, the template texts, and the
 * delivery log. Staff read the settings and templates; admins change them and read the log.
 */
export function MessagesPage({
  search,
  onSearchChange,
}: {
  search: MessagesSearch;
  onSearchChange: (next: MessagesSearch) => void;
}) {
  const admin = useIsAdmin();
  const tab: MessageTab = search.tab ?? 'settings';
  return (
    <div>
      <Link
        to="/settings"
        className="mb-2 inline-flex items-center gap-1 text-sm text-muted-foreground underline-offset-4 hover:underline"
      >
        <ChevronLeftIcon className="size-4" /> Settings
      </Link>
      <PageHeader
        title="Messages"
        description="Confirmations, reminders and notices by e-mail and SMS: when they go, what they say, and what happened to each."
      />
      <Tabs
        value={tab}
        // The log's filters stay in the URL while another tab is open.
        onValueChange={(v) => onSearchChange({ ...search, tab: v === 'templates' || v === 'log' ? v : undefined })}
      >
        <TabsList>
          <TabsTrigger value="settings">Settings</TabsTrigger>
          <TabsTrigger value="templates">Templates</TabsTrigger>
          <TabsTrigger value="log">Log</TabsTrigger>
        </TabsList>
        <TabsContent value="settings">
          <MessageSettingsCard canEdit={admin} />
        </TabsContent>
        <TabsContent value="templates">
          <TemplateEditorCard canEdit={admin} canReadLog={admin} />
        </TabsContent>
        <TabsContent value="log">
          <RequireRole roles={ADMIN_ROLES}>
            <MessageLog search={search} onSearchChange={onSearchChange} />
          </RequireRole>
        </TabsContent>
      </Tabs>
    </div>
  );
}
