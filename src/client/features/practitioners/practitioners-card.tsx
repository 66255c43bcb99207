import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { QueryView } from '@/components/query-view';
import { FormError } from '@/components/form-feedback';
import { TitledCard } from '@/components/titled-card';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { UserPicker } from '@/components/user-picker';
import { explainedMessage } from '@/lib/errors';
import { useFormMutation } from '@/lib/use-form-mutation';
import { trpc } from '@/lib/trpc';
import { ZCreatePractitionerInput, ZUpdatePractitionerBody, type TPractitioner } from '@shared/schemas/practitioners';
import { TimeOffPanel } from './time-off-panel';
import { WorkingPlanEditor } from './working-week';
import { onSubmitted } from '@/lib/utils';

interface Option {
  _id: string;
  label: string;
}

/** Checkboxes for a set of ids (branches, treatments), wrapping on a phone. */
function Choices({
  legend,
  options,
  chosen,
  onChange,
}: {
  legend: string;
  options: Option[];
  chosen: string[];
  onChange: (ids: string[]) => void;
}) {
  return (
    <fieldset className="grid gap-1">
      <legend className="text-sm font-medium">{legend}</legend>
      <div className="flex flex-wrap gap-x-4 gap-y-1">
        {options.length === 0 && <span className="text-sm text-muted-foreground">None yet.</span>}
        {options.map((o) => (
          <label key={o._id} className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              className="size-4 accent-primary"
              checked={chosen.includes(o._id)}
              onChange={(e) => onChange(e.target.checked ? [...chosen, o._id] : chosen.filter((x) => x !== o._id))}
            />
            {o.label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

function useOptions() {
  const branches = useQuery(trpc.branches.options.queryOptions());
  const treatments = useQuery(trpc.treatments.options.queryOptions());
  return {
    branches: (branches.data ?? []).map((b) => ({ _id: b._id, label: b.name })),
    treatments: (treatments.data ?? []).map((t) => ({ _id: t._id, label: t.treatmentName })),
  };
}

/** Adding a practitioner: a user found with the picker, the branches they work at, a colour. */
function AddPractitioner({ onDone }: { onDone: () => void }) {
  const queryClient = useQueryClient();
  const options = useOptions();
  const [email, setEmail] = useState('');
  const [branchIds, setBranchIds] = useState<string[]>([]);
  const [treatmentIds, setTreatmentIds] = useState<string[]>([]);
  const [color, setColor] = useState('#2563eb');
  const [error, setError] = useState<string | null>(null);
  const create = useFormMutation({
    mutationOptions: trpc.practitioners.create.mutationOptions,
    success: (p) => `${p.user.fullName} is now a practitioner.`,
    failure: 'Failed to add the practitioner. Please try again.',
    after: async () => {
      await queryClient.invalidateQueries(trpc.practitioners.pathFilter());
      onDone();
    },
    onError: setError,
  });
  const submit = async () => {
    setError(null);
    const typed = email.trim().toLowerCase();
    if (!typed) return setError('Choose a user.');
    // The picker writes the chosen user's email; the user's id is looked up from it.
    const found = await queryClient.fetchQuery(trpc.users.search.queryOptions({ query: typed, limit: 8 }));
    const user = found.find((u) => u.email === typed);
    if (!user) return setError('User not found.');
    const parsed = ZCreatePractitionerInput.safeParse({ userId: user._id, branchIds, treatmentIds, color });
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? 'Check the fields.');
    create.mutate(parsed.data);
  };
  return (
    <form className="grid gap-3 rounded-md border p-3" onSubmit={onSubmitted(submit)}>
      <div className="grid gap-1">
        <label htmlFor="new-practitioner-user" className="text-sm font-medium">
          User
        </label>
        <UserPicker
          placeholder="Type a name or email"
          control={{
            id: 'new-practitioner-user',
            name: 'user',
            value: email,
            onChange: (v) => {
              setError(null);
              setEmail(typeof v === 'string' ? v : '');
            },
            onBlur: () => {},
            ref: () => {},
            'aria-invalid': false,
          }}
        />
      </div>
      <Choices legend="Branches" options={options.branches} chosen={branchIds} onChange={setBranchIds} />
      <Choices legend="Treatments" options={options.treatments} chosen={treatmentIds} onChange={setTreatmentIds} />
      <label className="flex items-center gap-2 text-sm font-medium">
        Colour
        <Input type="color" className="h-9 w-16 p-1" value={color} onChange={(e) => setColor(e.target.value)} />
      </label>
      <FormError error={error} />
      <div className="flex gap-2">
        <Button type="submit" disabled={create.isPending}>
          Add practitioner
        </Button>
        <Button type="button" variant="outline" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

/** One practitioner's settings: branches, treatments, colour, active; their working plan and time off. */
function EditPractitioner({ practitioner }: { practitioner: TPractitioner }) {
  const queryClient = useQueryClient();
  const options = useOptions();
  const [branchIds, setBranchIds] = useState(practitioner.branches.map((b) => b._id));
  const [treatmentIds, setTreatmentIds] = useState(practitioner.treatments.map((t) => t._id));
  const [color, setColor] = useState(practitioner.color);
  const [active, setActive] = useState(practitioner.active);
  const [error, setError] = useState<string | null>(null);
  const update = useFormMutation({
    mutationOptions: trpc.practitioners.update.mutationOptions,
    success: 'Practitioner saved.',
    failure: 'Failed to save the practitioner. Please try again.',
    after: () => queryClient.invalidateQueries(trpc.practitioners.pathFilter()),
    onError: setError,
  });
  const submit = () => {
    setError(null);
    const parsed = ZUpdatePractitionerBody.safeParse({ branchIds, treatmentIds, color, active });
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? 'Check the fields.');
    update.mutate({ id: practitioner._id, ...parsed.data });
  };
  return (
    <div className="grid gap-4 border-t pt-3">
      <form className="grid gap-3" onSubmit={onSubmitted(submit)}>
        <Choices legend="Branches" options={options.branches} chosen={branchIds} onChange={setBranchIds} />
        <Choices legend="Treatments" options={options.treatments} chosen={treatmentIds} onChange={setTreatmentIds} />
        <div className="flex flex-wrap items-center gap-4">
          <label className="flex items-center gap-2 text-sm font-medium">
            Colour
            <Input type="color" className="h-9 w-16 p-1" value={color} onChange={(e) => setColor(e.target.value)} />
          </label>
          <label className="flex items-center gap-2 text-sm font-medium">
            <input
              type="checkbox"
              className="size-4 accent-primary"
              checked={active}
              onChange={(e) => setActive(e.target.checked)}
            />
            Active
          </label>
        </div>
        <FormError error={error} />
        <div>
          <Button type="submit" disabled={update.isPending}>
            Save practitioner
          </Button>
        </div>
      </form>
      <section className="grid gap-2">
        <h3 className="text-sm font-semibold">Working plan</h3>
        <WorkingPlanEditor key={practitioner.branches.map((b) => b._id).join()} practitioner={practitioner} />
      </section>
      <section className="grid gap-2">
        <h3 className="text-sm font-semibold">Time off</h3>
        <TimeOffPanel practitionerId={practitioner._id} />
      </section>
    </div>
  );
}

/** Settings: who delivers treatments (docs/appointments.md#resources). */
export function PractitionersCard() {
  const queryClient = useQueryClient();
  const list = useQuery(trpc.practitioners.list.queryOptions({}));
  const [adding, setAdding] = useState(false);
  const [open, setOpen] = useState<string | null>(null);
  const [removing, setRemoving] = useState<TPractitioner | null>(null);
  const remove = useMutation(
    trpc.practitioners.remove.mutationOptions({
      onSuccess: async (res) => {
        toast.success(res.message);
        setRemoving(null);
        await queryClient.invalidateQueries(trpc.practitioners.pathFilter());
      },
      onError: (err) => toast.error(explainedMessage(err, 'Failed to remove the practitioner. Please try again.')),
    }),
  );
  return (
    <TitledCard
      title="Practitioners"
      actions={
        !adding && (
          <Button size="sm" onClick={() => setAdding(true)}>
            Add practitioner
          </Button>
        )
      }
      contentClassName="grid gap-3"
    >
      {adding && <AddPractitioner onDone={() => setAdding(false)} />}
      <QueryView query={list} placeholder="h-16 w-full" empty={(d) => d.data.length === 0 && 'No practitioners yet.'}>
        {(d) => (
          <ul className="grid gap-2">
            {d.data.map((p) => (
              <li key={p._id} className="rounded-md border p-3">
                <div className="flex flex-wrap items-center gap-2">
                  <span aria-hidden className="size-3 rounded-full" style={{ backgroundColor: p.color }} />
                  <span className="font-medium">{p.user.fullName}</span>
                  <span className="text-sm text-muted-foreground">{p.user.email}</span>
                  {!p.active && <Badge variant="secondary">Inactive</Badge>}
                  <span className="ms-auto flex gap-2">
                    <Button
                      size="sm"
                      variant="outline"
                      aria-expanded={open === p._id}
                      aria-label={`${open === p._id ? 'Close' : 'Edit'} ${p.user.fullName}`}
                      onClick={() => setOpen(open === p._id ? null : p._id)}
                    >
                      {open === p._id ? 'Close' : 'Edit'}
                    </Button>
                    <Button
                      size="sm"
                      variant="ghost"
                      aria-label={`Remove ${p.user.fullName}`}
                      onClick={() => setRemoving(p)}
                    >
                      Remove
                    </Button>
                  </span>
                </div>
                <p className="mt-1 text-sm text-muted-foreground">
                  {p.branches.map((b) => b.name).join(', ') || 'No branch'} ·{' '}
                  {p.treatments.map((t) => t.treatmentName).join(', ') || 'No treatments'}
                </p>
                {open === p._id && <EditPractitioner key={p._id} practitioner={p} />}
              </li>
            ))}
          </ul>
        )}
      </QueryView>
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(o) => !o && setRemoving(null)}
        title="Remove practitioner"
        description={`Remove ${removing?.user.fullName ?? ''}? One with appointments is deactivated instead, so the calendar keeps them.`}
        confirmLabel="Remove"
        pending={remove.isPending}
        onConfirm={() => removing && remove.mutate({ id: removing._id })}
      />
    </TitledCard>
  );
}
