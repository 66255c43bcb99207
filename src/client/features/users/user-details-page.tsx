import { DetailsPage } from '@/components/details-page';
import { DetailList, DetailRow } from '@/components/detail-list';
import { Handle } from '@/components/person-name';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent } from '@/components/ui/card';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { UserAvatar } from '@/components/user-avatar';
import { trpc } from '@/lib/trpc';
import { formatDate } from '@shared/format';
import { ROLE_LABELS } from '@shared/roles';
import { UserRecords } from './user-records';
import { UserStatement } from './user-statement';
import { PersonDetailsCard } from './person-details-card';

export type UserDetailsTab = 'records' | 'statement';

/** `/users/{id}?tab=statement`: the Statement tab; anything else is the default Records tab. */
export function validateUserDetailsSearch(search: Record<string, unknown>): { tab?: 'statement' } {
  return { tab: search.tab === 'statement' ? 'statement' : undefined };
}

/** One user's details, and for admins the user's History (docs/audit.md#reading-it). */
export function UserDetailsPage({
  userId,
  tab,
  onTabChange,
}: {
  userId: string;
  tab: UserDetailsTab;
  onTabChange: (tab: UserDetailsTab) => void;
}) {
  return (
    <DetailsPage entity="user" id={userId} query={trpc.users.get.queryOptions({ id: userId })}>
      {(u) => (
        <>
          <Card className="max-w-4xl">
            <CardContent className="flex flex-wrap gap-6">
              <UserAvatar user={u} className="size-20 rounded-full" />
              {/* On a phone the fields go under the photo, so a long name or address keeps a line wide enough. */}
              <DetailList className="min-w-64 flex-1">
                <DetailRow label="Username">
                  <Handle text={u.username} className="block" data-testid="user-username" />
                </DetailRow>
                <DetailRow label="Full name">{u.fullName}</DetailRow>
                <DetailRow label="Email">
                  <Handle text={u.email} className="block" />
                </DetailRow>
                <DetailRow label="Role">
                  <Badge variant="secondary" data-testid="user-role">
                    {ROLE_LABELS[u.role]}
                  </Badge>
                </DetailRow>
                <DetailRow label="Branch">{u.branch?.name ?? '—'}</DetailRow>
                <DetailRow label="Created">{formatDate(u.createdAt)}</DetailRow>
              </DetailList>
            </CardContent>
          </Card>
          <PersonDetailsCard user={u} />
          <Tabs value={tab} onValueChange={(v) => onTabChange(v === 'statement' ? 'statement' : 'records')}>
            <TabsList>
              <TabsTrigger value="records">Records</TabsTrigger>
              <TabsTrigger value="statement">Statement</TabsTrigger>
            </TabsList>
            <TabsContent value="records" className="space-y-4">
              <UserRecords userId={u._id} />
            </TabsContent>
            <TabsContent value="statement">
              <UserStatement userId={u._id} />
            </TabsContent>
          </Tabs>
        </>
      )}
    </DetailsPage>
  );
}
