import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ChevronDownIcon, ChevronUpIcon, ImageUpIcon, PencilIcon } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { SubmitButton } from '@/components/form-feedback';
import { PageHeader } from '@/components/page-header';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardFooter } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { UserAvatar } from '@/components/user-avatar';
import { storeUser, useCurrentUser, type CurrentUser } from '@/lib/auth';
import { isClientError } from '@/lib/errors';
import { trpc, trpcClient } from '@/lib/trpc';
import { ROLE_LABELS } from '@shared/roles';
import { MAX_PICTURE_BYTES, PICTURE_TYPES, restReason, sendUserForm, type User } from './user-queries';

const UPDATE_FAILED = 'Failed to update profile.';
const MISSING_DATA = 'Server response missing required data';

interface Draft {
  username: string;
  fullName: string;
  phone: string;
  address: string;
}

const draftOf = (u: CurrentUser): Draft => ({
  username: u.username,
  fullName: u.fullName,
  phone: u.phone ?? '',
  address: u.address ?? '',
});

/** docs/product.md#screens-and-routes, Profile: any signed-in user edits their own; email and branch are read-only. */
export function ProfilePage() {
  const me = useCurrentUser();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [showOptional, setShowOptional] = useState(Boolean(me.phone || me.address));
  const [draft, setDraft] = useState<Draft>(() => draftOf(me));
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
    mutationFn: async (d: Draft): Promise<User> => {
      const fields = {
        username: d.username.trim(),
        fullName: d.fullName.trim(),
        phone: d.phone.trim(),
        address: d.address.trim(),
      };
      if (!picture) return trpcClient.users.updateProfile.mutate(fields);
      const form = new FormData();
      for (const [k, v] of Object.entries(fields)) form.append(k, v);
      form.append('image', picture);
      return sendUserForm('/api/users/profile', form);
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
    setDraft(draftOf(me));
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

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (!draft.username.trim() || !draft.fullName.trim()) {
      toast.error('Please fill all the required fields.');
      return;
    }
    save.mutate(draft);
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
        <form onSubmit={onSubmit} noValidate>
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
                  {pictureError && (
                    <p role="alert" className="text-sm text-destructive">
                      {pictureError}
                    </p>
                  )}
                </div>
              )}
            </div>

            {editing ? (
              <div className="grid gap-4">
                <div className="grid gap-4 sm:grid-cols-2">
                  <div className="grid gap-2">
                    <Label htmlFor="profile-username">Username</Label>
                    <Input
                      id="profile-username"
                      value={draft.username}
                      onChange={(e) => setDraft({ ...draft, username: e.target.value })}
                      maxLength={50}
                    />
                  </div>
                  <div className="grid gap-2">
                    <Label htmlFor="profile-fullname">Full Name</Label>
                    <Input
                      id="profile-fullname"
                      value={draft.fullName}
                      onChange={(e) => setDraft({ ...draft, fullName: e.target.value })}
                      maxLength={100}
                    />
                  </div>
                  <div className="grid gap-2">
                    <Label htmlFor="profile-email">Email</Label>
                    <Input id="profile-email" value={me.email} readOnly disabled />
                  </div>
                  <div className="grid gap-2">
                    <Label htmlFor="profile-branch">Branch</Label>
                    <Input id="profile-branch" value={me.branch?.name ?? 'No branch'} readOnly disabled />
                  </div>
                </div>
                {optionalToggle}
                {showOptional && (
                  <div className="grid gap-4">
                    <div className="grid gap-2">
                      <Label htmlFor="profile-phone">Phone</Label>
                      <Input
                        id="profile-phone"
                        type="tel"
                        value={draft.phone}
                        onChange={(e) => setDraft({ ...draft, phone: e.target.value })}
                        maxLength={30}
                      />
                    </div>
                    <div className="grid gap-2">
                      <Label htmlFor="profile-address">Address</Label>
                      <Textarea
                        id="profile-address"
                        value={draft.address}
                        onChange={(e) => setDraft({ ...draft, address: e.target.value })}
                        maxLength={300}
                        rows={3}
                      />
                    </div>
                  </div>
                )}
              </div>
            ) : (
              // The toggle sits between two lists: a <dl> may hold only name-value groups.
              <div className="grid gap-4">
                <dl className="grid gap-4 sm:grid-cols-2">
                  <Field label="Username" value={me.username} />
                  <Field label="Full Name" value={me.fullName} />
                  <Field label="Email" value={me.email} />
                  <Field label="Branch" value={me.branch ? `${me.branch.name} (${me.branch.location})` : 'No branch'} />
                </dl>
                <div>{optionalToggle}</div>
                {showOptional && (
                  <dl className="grid gap-4 sm:grid-cols-2">
                    <Field label="Phone" value={me.phone || 'Not set'} />
                    <Field label="Address" value={me.address || 'Not set'} />
                  </dl>
                )}
              </div>
            )}
          </CardContent>
          {editing && (
            <CardFooter className="mt-6 justify-end gap-2">
              <Button type="button" variant="outline" onClick={() => setEditing(false)} disabled={save.isPending}>
                Cancel
              </Button>
              <SubmitButton pending={save.isPending} pendingText="Saving...">
                Save Changes
              </SubmitButton>
            </CardFooter>
          )}
        </form>
      </Card>
    </div>
  );
}

function Field({ label, value }: { label: string; value: string }) {
  return (
    <div className="grid gap-1">
      <dt className="text-xs font-medium tracking-wide text-muted-foreground uppercase">{label}</dt>
      <dd className="text-sm">{value}</dd>
    </div>
  );
}
