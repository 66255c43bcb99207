import { useQuery, useQueryClient } from '@tanstack/react-query';
import { PlusIcon } from 'lucide-react';
import { useState, type ComponentProps } from 'react';
import { FormError } from '@/components/form-feedback';
import { QueryView } from '@/components/query-view';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { useFormMutation } from '@/lib/use-form-mutation';
import { trpc, type RouterOutputs } from '@/lib/trpc';
import { ZSchemeInput } from '@shared/schemas/adjustments';
import { CheckboxField } from '@/components/checkbox-field';
import { useSettingSave } from './switch-setting-card';

type Scheme = RouterOutputs['adjustments']['schemes']['data'][number];

/**
 * Settings → Scholarships (docs/payments.md#scholarship-schemes): the named schemes with their
 * default percentage, switched off rather than deleted (the entries that named one keep it), and
 * whether a manager's discount or scholarship waits for an admin's approval.
 */
export function ScholarshipsCard() {
  const queryClient = useQueryClient();
  const settings = useQuery(trpc.adjustments.settings.queryOptions());
  const schemes = useQuery(trpc.adjustments.schemes.queryOptions());
  const refresh = () => queryClient.invalidateQueries(trpc.adjustments.pathFilter());
  const saveSettings = useSettingSave({
    mutationOptions: trpc.adjustments.updateSettings.mutationOptions,
    saved: (s) =>
      s.approvalRequired
        ? 'Managers may now ask for discounts and scholarships; an admin approves them.'
        : 'Approval is off: only admins give discounts and scholarships.',
    refresh: trpc.adjustments.pathFilter(),
  });
  return (
    <Card className="max-w-3xl" data-testid="scholarships-card">
      <CardHeader>
        <CardTitle>Scholarships</CardTitle>
        <CardDescription>Schemes a scholarship can name, with the percentage it takes off by default.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <QueryView query={settings} placeholder="h-6 w-64">
          {(data) => (
            <CheckboxField
              id="adjustment-approval"
              label="Managers ask, admins approve"
              description={
                <>
                  When on, a manager&apos;s discount or scholarship waits until an admin approves it. When off, only
                  admins give them.
                </>
              }
              checked={data.approvalRequired}
              disabled={saveSettings.isPending}
              onCheckedChange={(approvalRequired) => saveSettings.mutate({ approvalRequired })}
            />
          )}
        </QueryView>
        <QueryView query={schemes} placeholder="h-24 w-full">
          {(data) => (
            <Table containerClassName="rounded-md border" aria-label="Scholarship schemes">
              <TableHeader>
                <TableRow>
                  <TableHead>Name</TableHead>
                  <TableHead className="w-28">Default %</TableHead>
                  <TableHead className="w-20">Active</TableHead>
                  <TableHead className="w-24 text-right">Actions</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {data.data.length === 0 && (
                  <TableRow>
                    <TableCell colSpan={4} className="text-center text-muted-foreground">
                      No schemes yet.
                    </TableCell>
                  </TableRow>
                )}
                {data.data.map((s) => (
                  <SchemeRow key={`${s._id}-${s.updatedAt}`} scheme={s} onSaved={refresh} />
                ))}
                <NewSchemeRow onSaved={refresh} />
              </TableBody>
            </Table>
          )}
        </QueryView>
      </CardContent>
    </Card>
  );
}

function SchemeRow({ scheme, onSaved }: { scheme: Scheme; onSaved: () => Promise<void> }) {
  const [name, setName] = useState(scheme.name);
  const [percent, setPercent] = useState(String(scheme.defaultPercent));
  const [active, setActive] = useState(scheme.active);
  const [error, setError] = useState<string | null>(null);
  const update = useFormMutation({
    mutationOptions: trpc.adjustments.updateScheme.mutationOptions,
    success: (s) => `Saved scheme ${s.name}.`,
    failure: 'Failed to save the scheme',
    after: () => onSaved(),
    onError: setError,
  });
  const changed = name !== scheme.name || Number(percent) !== scheme.defaultPercent || active !== scheme.active;
  const save = () => {
    const parsed = ZSchemeInput.safeParse({ name, defaultPercent: Number(percent), active });
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? 'Please check the scheme.');
    setError(null);
    update.mutate({ id: scheme._id, ...parsed.data });
  };
  return (
    <TableRow data-testid="scheme-row">
      <TableCell className="whitespace-normal">
        <Input aria-label="Scheme name" value={name} maxLength={100} onChange={(e) => setName(e.target.value)} />
        <FormError error={error} className="mt-1 text-xs" />
      </TableCell>
      <TableCell>
        <PercentInput aria-label={`Default percent of ${scheme.name}`} value={percent} onChange={setPercent} />
      </TableCell>
      <TableCell>
        <input
          type="checkbox"
          aria-label={`${scheme.name} is active`}
          className="size-4 accent-primary"
          checked={active}
          onChange={(e) => setActive(e.target.checked)}
        />
      </TableCell>
      <TableCell className="text-right">
        <Button size="sm" variant="outline" disabled={!changed || update.isPending} onClick={save}>
          {update.isPending && <Spinner />} Save
        </Button>
      </TableCell>
    </TableRow>
  );
}

function NewSchemeRow({ onSaved }: { onSaved: () => Promise<void> }) {
  const [name, setName] = useState('');
  const [percent, setPercent] = useState('');
  const [error, setError] = useState<string | null>(null);
  const create = useFormMutation({
    mutationOptions: trpc.adjustments.createScheme.mutationOptions,
    success: (s) => `Added scheme ${s.name}.`,
    failure: 'Failed to add the scheme',
    after: async () => {
      setName('');
      setPercent('');
      await onSaved();
    },
    onError: setError,
  });
  const add = () => {
    const parsed = ZSchemeInput.safeParse({ name, defaultPercent: percent.trim() ? Number(percent) : undefined });
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? 'Please check the scheme.');
    setError(null);
    create.mutate(parsed.data);
  };
  return (
    <TableRow>
      <TableCell className="whitespace-normal">
        <Label htmlFor="new-scheme-name" className="sr-only">
          New scheme name
        </Label>
        <Input
          id="new-scheme-name"
          placeholder="New scheme, e.g. Staff child"
          value={name}
          maxLength={100}
          onChange={(e) => setName(e.target.value)}
        />
        <FormError error={error} className="mt-1 text-xs" />
      </TableCell>
      <TableCell>
        <PercentInput
          id="new-scheme-percent"
          aria-label="Default percent of the new scheme"
          placeholder="%"
          value={percent}
          onChange={setPercent}
        />
      </TableCell>
      <TableCell />
      <TableCell className="text-right">
        <Button size="sm" disabled={create.isPending} onClick={add}>
          {create.isPending ? <Spinner /> : <PlusIcon />} Add
        </Button>
      </TableCell>
    </TableRow>
  );
}

/** A scheme's default percent, 1 to 100, to the hundredth. */
function PercentInput({
  onChange,
  ...props
}: Omit<ComponentProps<typeof Input>, 'onChange' | 'value'> & { value: string; onChange: (v: string) => void }) {
  return <Input type="number" min="1" max="100" step="0.01" {...props} onChange={(e) => onChange(e.target.value)} />;
}
