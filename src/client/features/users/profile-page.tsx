import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ChevronDownIcon, ChevronUpIcon, ImageUpIcon, PencilIcon } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import { FormFooter, FormError } from '@/components/form-feedback';
import { FormField, ZodFormElement } from '@/components/form-field';
import { PageHeader } from '@/components/page-header';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';
import { UserAvatar } from '@/components/user-avatar';
import { storeUser, useCurrentUser, type CurrentUser } from '@/lib/auth';
import { isClientError } from '@/lib/errors';
import { trpc, trpcClient } from '@/lib/trpc';
import { useZodForm } from '@/lib/use-zod-form';
import { ROLE_LABELS } from '@shared/roles';
import { ZUpdateProfileInput, type TUpdateProfileInput } from '@shared/schemas/users';
import { displayPhone } from '@shared/schemas/person';
import { MAX_PICTURE_BYTES, PICTURE_TYPES, restReason, sendUserForm, type User } from './user-queries';
import { LabelledField } from '@/components/labelled-field';

const UPDATE_FAILED = 'Failed to update profile.';
const MISSING_DATA = 'Server response missing required data';

const draftOf = (u: CurrentUser) => ({
  username: u.username,
  fullName: u.fullName,
  phone: displayPhone(u.phone),
  address: u.address ?? '',
});

/** docs/product.md#screens-and-routes, Profile: any signed-in user edits their own; email and branch are read-only. */
export function ProfilePage() {
  const me = useCurrentUser();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [showOptional, setShowOptional] = useState(Boolean(me.phone || me.address));
  const form = useZodForm(ZUpdateProfileInput, draftOf(me));
  const [chosen, setChosen] = useState<{ file: File; url: string } | null>(null);
  const picture = chosen?.file ?? null;
  const preview = chosen?.url ?? null;
  const [pictureError, setPictureError] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  const setPicture = (file: File | null) => setChosen(file ? { file, url: URL.createObjectURL(file) } : null);
  // The preview's object URL lives as long as the choice: a new choice or leaving frees it.
  useEffect(() => {
    if (!chosen) return;
    const { url } = chosen;
    return () => URL.revokeObjectURL(url);
  }, [chosen]);

  const save = useMutation({
    mutationFn: async (fields: TUpdateProfileInput): Promise<User> => {
      if (!picture) return trpcClient.users.updateProfile.mutate(fields);
      const body = new FormData();
      // A cleared phone or address is sent blank: the server stores it as not set.
      for (const [k, v] of Object.entries(fields)) if (v !== undefined) body.append(k, v ?? '');
      body.append('image', picture);
      return sendUserForm('/api/users/profile', body);
    },
    onSuccess: async (user) => {
      if (!user?._id) {
        toast.error(MISSING_DATA);
        return;
      }
      // The header reads `auth.me` (and the stored copy): both take the new name and picture now.
      queryClient.setQueryData(trpc.auth.me.queryKey(), user);
      storeUser(user);
      await queryClient.invalidateQueries(trpc.auth.me.queryFilter());
      await queryClient.invalidateQueries(trpc.users.pathFilter());
      toast.success('Profile updated successfully!');
      setPicture(null);
      setEditing(false);
    },
    onError: (err) => {
      // A refusal the user can fix (a picture too large, a taken username) says why.
      const reason = restReason(err) ?? (isClientError(err) && err instanceof Error ? err.message : undefined);
      toast.error(UPDATE_FAILED, reason ? { description: reason } : undefined);
    },
  });

  const startEdit = () => {
    form.reset(draftOf(me));
    setPicture(null);
    setPictureError(null);
    setEditing(true);
  };

  const choosePicture = (file: File | undefined) => {
    setPictureError(null);
    if (!file) return setPicture(null);
    if (!PICTURE_TYPES.includes(file.type)) {
      setPictureError('The picture must be a JPEG, PNG or WebP image.');
      return;
    }
    if (file.size > MAX_PICTURE_BYTES) {
      setPictureError('The picture must be at most 2 MB.');
      return;
    }
    setPicture(file);
  };

  const optionalToggle = (
    <Button
      type="button"
      variant="ghost"
      size="sm"
      className="justify-self-start px-0"
      onClick={() => setShowOptional((s) => !s)}
      aria-expanded={showOptional}
    >
      {showOptional ? <ChevronUpIcon /> : <ChevronDownIcon />}
      {showOptional ? 'Hide optional details' : 'Show optional details'}
    </Button>
  );

  return (
    <div>
      <PageHeader
        title="Profile"
        description="Your own details. Email and branch are managed by an administrator."
        actions={
          !editing && (
            <Button onClick={startEdit}>
              <PencilIcon /> Edit Profile
            </Button>
          )
        }
      />
      <Card className="max-w-2xl">
        <ZodFormElement form={form} idPrefix="profile" onValid={(values) => save.mutate(values)}>
          <CardContent className="grid gap-6">
            <div className="flex flex-wrap items-center gap-5">
              {preview ? (
                <img
                  src={preview}
                  alt="New profile picture preview"
                  data-testid="picture-preview"
                  className="size-24 rounded-full border object-cover"
                />
              ) : (
                <UserAvatar user={me} className="size-24" alt="Your profile picture" />
              )}
              <div className="grid gap-1">
                <p className="text-lg font-semibold">{me.fullName}</p>
                <p className="text-sm text-muted-foreground">@{me.username}</p>
                <Badge variant="secondary" className="w-fit">
                  {ROLE_LABELS[me.role] ?? me.role}
                </Badge>
              </div>
              {editing && (
                <div className="grid gap-1">
                  <input
                    ref={fileInput}
                    id="profile-picture"
                    type="file"
                    accept={PICTURE_TYPES.join(',')}
                    className="sr-only"
                    onChange={(e) => choosePicture(e.target.files?.[0])}
                    aria-label="Profile picture"
                  />
                  <Button type="button" variant="outline" size="sm" onClick={() => fileInput.current?.click()}>
                    <ImageUpIcon /> {picture ? 'Choose another picture' : 'Upload picture'}
                  </Button>
                  <p className="text-xs text-muted-foreground">JPEG, PNG or WebP, at most 2 MB.</p>
                  <FormError error={pictureError} />
                </div>
              )}
            </div>

            {editing ? (
              <div className="grid gap-4">
                <div className="grid gap-4 sm:grid-cols-2">
                  <FormField name="username" label="Username">
                    {(field) => <Input {...field} maxLength={50} />}
                  </FormField>
                  <FormField name="fullName" id="profile-fullname" label="Full Name">
                    {(field) => <Input {...field} maxLength={100} />}
                  </FormField>
                  <ReadOnlyField id="profile-email" label="Email" value={me.email} />
                  <ReadOnlyField id="profile-branch" label="Branch" value={me.branch?.name ?? 'No branch'} />
                </div>
                {optionalToggle}
                {showOptional && (
                  <div className="grid gap-4">
                    <FormField name="phone" label="Phone">
                      {(field) => <Input {...field} type="tel" maxLength={30} />}
                    </FormField>
                    <FormField name="address" label="Address">
                      {(field) => <Textarea {...field} maxLength={300} rows={3} />}
                    </FormField>
                  </div>
                )}
              </div>
            ) : (
              // The toggle sits between two lists: a <dl> may hold only name-value groups.
              <div className="grid gap-4">
                <dl className="grid gap-4 sm:grid-cols-2">
                  <ShownValue label="Username" value={me.username} />
                  <ShownValue label="Full Name" value={me.fullName} />
                  <ShownValue label="Email" value={me.email} />
                  <ShownValue
                    label="Branch"
                    value={me.branch ? `${me.branch.name} (${me.branch.location})` : 'No branch'}
                  />
                </dl>
                <div>{optionalToggle}</div>
                {showOptional && (
                  <dl className="grid gap-4 sm:grid-cols-2">
                    <ShownValue label="Phone" value={displayPhone(me.phone) || 'Not set'} />
                    <ShownValue label="Address" value={me.address || 'Not set'} />
                  </dl>
                )}
              </div>
            )}
          </CardContent>
          {editing && (
            <FormFooter pending={save.isPending} pendingText="Saving..." onCancel={() => setEditing(false)}>
              Save Changes
            </FormFooter>
          )}
        </ZodFormElement>
      </Card>
    </div>
  );
}

/** A field the profile shows but the user cannot change (the administrator manages it). */
function ReadOnlyField({ id, label, value }: { id: string; label: string; value: string }) {
  return (
    <LabelledField id={id} label={label}>
      <Input id={id} value={value} readOnly disabled />
    </LabelledField>
  );
}

/** One detail in view mode: not a form field, a label over its value. */
function ShownValue({ label, value }: { label: string; value: string }) {
  return (
    <div className="grid gap-1">
      <dt className="text-xs font-medium tracking-wide text-muted-foreground uppercase">{label}</dt>
      <dd className="text-sm">{value}</dd>
    </div>
  );
}
