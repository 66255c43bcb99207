import { useMutation, useQueryClient } from '@tanstack/react-query';
import { PencilIcon } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { DetailList, DetailRow } from '@/components/detail-list';
import { FormFooter } from '@/components/form-feedback';
import { FormMessage, ZodFormElement } from '@/components/form-field';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { useCurrentUser } from '@/lib/auth';
import { explainedMessage } from '@/lib/errors';
import { trpc } from '@/lib/trpc';
import { useZodForm } from '@/lib/use-zod-form';
import { formatDay } from '@shared/format';
import { displayPhone, GENDER_LABELS } from '@shared/schemas/person';
import { ZUpdateUserInput } from '@shared/schemas/users';
import { canManage, type User } from './user-queries';
import { personDraftOf, PersonFields } from './person-fields';

/** The user's personal details (docs/users.md#personal-details), editable by staff who may manage them. */
export function PersonDetailsCard({ user }: { user: User }) {
  const me = useCurrentUser();
  const [editing, setEditing] = useState(false);
  const contact = user.emergencyContact;
  return (
    <Card className="max-w-4xl">
      <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-2">
        <CardTitle>Personal details</CardTitle>
        {!editing && canManage(me, user) && (
          <Button variant="outline" size="sm" onClick={() => setEditing(true)}>
            <PencilIcon aria-hidden="true" />
            Edit details
          </Button>
        )}
      </CardHeader>
      {editing ? (
        <PersonForm user={user} onDone={() => setEditing(false)} />
      ) : (
        <CardContent>
          <DetailList>
            <DetailRow label="Phone">
              <span data-testid="user-phone">{displayPhone(user.phone) || '—'}</span>
            </DetailRow>
            <DetailRow label="NIC">
              <span data-testid="user-nic">{user.nic ?? '—'}</span>
            </DetailRow>
            <DetailRow label="Date of birth">{user.dateOfBirth ? formatDay(user.dateOfBirth) : '—'}</DetailRow>
            <DetailRow label="Gender">{user.gender ? GENDER_LABELS[user.gender] : '—'}</DetailRow>
            <DetailRow label="Address">
              <span className="whitespace-pre-line">{user.address ?? '—'}</span>
            </DetailRow>
            <DetailRow label="Emergency contact">
              <span data-testid="user-emergency-contact">
                {contact
                  ? `${contact.name}${contact.relation ? ` (${contact.relation})` : ''} · ${displayPhone(contact.phone)}`
                  : '—'}
              </span>
            </DetailRow>
            <DetailRow label="Guardian phone">
              <span data-testid="user-guardian-phone">{displayPhone(user.guardianPhone) || '—'}</span>
            </DetailRow>
          </DetailList>
        </CardContent>
      )}
    </Card>
  );
}

function PersonForm({ user, onDone }: { user: User; onDone: () => void }) {
  const queryClient = useQueryClient();
  const form = useZodForm(ZUpdateUserInput, { id: user._id, ...personDraftOf(user) });
  const save = useMutation(
    trpc.users.update.mutationOptions({
      onSuccess: async () => {
        toast.success('User updated successfully!');
        await queryClient.invalidateQueries(trpc.users.pathFilter());
        onDone();
      },
      onError: (err) => form.failRequest(err, explainedMessage(err, 'Failed to update user. Please try again.')),
    }),
  );
  return (
    <ZodFormElement form={form} idPrefix="person" onValid={(values) => save.mutate(values)}>
      <CardContent className="grid gap-5">
        <PersonFields />
        <FormMessage />
      </CardContent>
      <FormFooter pending={save.isPending} pendingText="Saving..." onCancel={onDone}>
        Save details
      </FormFooter>
    </ZodFormElement>
  );
}
