import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from 'sonner';
import { CardQuery } from '@/components/card-query';
import { FormFooter } from '@/components/form-feedback';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { useIsAdmin } from '@/lib/auth';
import { explainedMessage } from '@/lib/errors';
import { trpc } from '@/lib/trpc';
import type { TOrganisation } from '@shared/schemas/organisation';
import { LabelledField } from '@/components/labelled-field';
import { onSubmitted } from '@/lib/utils';

type Fields = Omit<TOrganisation, 'logoUrl'>;
const FIELDS: Array<{ key: keyof Fields; label: string; multiline?: boolean }> = [
  { key: 'name', label: 'Name' },
  { key: 'phone', label: 'Phone' },
  { key: 'email', label: 'E-mail' },
  { key: 'address', label: 'Address', multiline: true },
  { key: 'receiptFooter', label: 'Receipt footer', multiline: true },
  // Shown to students and patients on the portal's How to pay.
  { key: 'bankDetails', label: 'Bank details (shown on the portal’s How to pay)', multiline: true },
];

/**
 * The organisation as receipts, statements, cash-ups, reports and e-mails print it
 * (docs/users.md#the-organisation-on-paper): admins edit it, other staff read it.
 */
export function OrganisationCard() {
  const current = useQuery(trpc.settings.getOrganisation.queryOptions());
  return (
    <Card className="max-w-xl" data-testid="organisation-card">
      <CardHeader>
        <CardTitle>Organisation</CardTitle>
        <CardDescription>
          Printed on receipts, cash-ups, reports and e-mails; the bank details are shown on the portal.
        </CardDescription>
      </CardHeader>
      <CardQuery query={current} placeholders={['h-40 w-full']}>
        {(data) => <OrganisationForm key={JSON.stringify(data)} saved={data} />}
      </CardQuery>
    </Card>
  );
}

function OrganisationForm({ saved }: { saved: TOrganisation }) {
  const isAdmin = useIsAdmin();
  const queryClient = useQueryClient();
  const [values, setValues] = useState<Fields>(saved);
  const refresh = () => queryClient.invalidateQueries(trpc.settings.getOrganisation.queryFilter());
  const save = useMutation(
    trpc.settings.updateOrganisation.mutationOptions({
      onSuccess: async () => {
        toast.success('Organisation saved.');
        await refresh();
      },
      onError: (err) => toast.error(explainedMessage(err, 'Failed to save the organisation. Please try again.')),
    }),
  );
  const upload = useMutation({
    mutationFn: async (file: File) => {
      const body = new FormData();
      body.append('logo', file);
      const res = await fetch('/api/settings/organisation/logo', { method: 'POST', body, credentials: 'same-origin' });
      const answer = (await res.json().catch(() => null)) as { message?: string } | null;
      if (!res.ok) throw new Error(answer?.message ?? 'Failed to upload the logo. Please try again.');
    },
    onSuccess: async () => {
      toast.success('Logo saved.');
      await refresh();
    },
    onError: (err) => toast.error(err.message),
  });
  return (
    <form onSubmit={onSubmitted(() => save.mutate(values))}>
      <CardContent className="grid gap-4 sm:grid-cols-2">
        {FIELDS.map((f) => (
          <div key={f.key} className={f.multiline || f.key === 'name' ? 'grid gap-1.5 sm:col-span-2' : 'grid gap-1.5'}>
            <Label htmlFor={`org-${f.key}`}>{f.label}</Label>
            {f.multiline ? (
              <Textarea
                id={`org-${f.key}`}
                value={values[f.key]}
                readOnly={!isAdmin}
                onChange={(e) => setValues({ ...values, [f.key]: e.target.value })}
              />
            ) : (
              <Input
                id={`org-${f.key}`}
                value={values[f.key]}
                readOnly={!isAdmin}
                onChange={(e) => setValues({ ...values, [f.key]: e.target.value })}
              />
            )}
          </div>
        ))}
        <LabelledField id="org-logo" label="Logo" className="sm:col-span-2">
          {saved.logoUrl && <img src={saved.logoUrl} alt="Organisation logo" className="h-12 w-auto object-contain" />}
          {isAdmin && (
            <Input
              id="org-logo"
              type="file"
              accept="image/png,image/jpeg,image/webp"
              disabled={upload.isPending}
              onChange={(e) => {
                const file = e.target.files?.[0];
                if (file) upload.mutate(file);
              }}
            />
          )}
        </LabelledField>
      </CardContent>
      {isAdmin && (
        <FormFooter pending={save.isPending} pendingText="Updating...">
          Update organisation
        </FormFooter>
      )}
    </form>
  );
}
