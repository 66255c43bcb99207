import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { FormError } from '@/components/form-feedback';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { QueryView } from '@/components/query-view';
import { BranchChooser } from './branch-chooser';
import { useFormMutation } from '@/lib/use-form-mutation';
import { trpc } from '@/lib/trpc';
import {
  minutesOf,
  WEEKDAY_LABELS,
  WEEKDAYS,
  ZSetWorkingPlanBody,
  type TPeriod,
  type TPractitioner,
  type Weekday,
} from '@shared/schemas/practitioners';

type Week = Record<Weekday, TPeriod[]>;

/**
 * A week drawn as seven bars of a day each (00:00 to 24:00), the working periods filled in the
 * practitioner's colour and the breaks left blank; it scales to the width, a phone's included.
 */
export function WeekDrawing({ days, color }: { days: Week; color: string }) {
  return (
    <figure aria-label="Working week" className="grid gap-1 text-xs">
      {WEEKDAYS.map((d) => (
        <div key={d} className="grid grid-cols-[2.5rem_1fr] items-center gap-2">
          <span className="text-muted-foreground">{WEEKDAY_LABELS[d].slice(0, 3)}</span>
          <div
            className="relative h-4 rounded bg-muted"
            title={days[d].map((p) => `${p.start}–${p.end}`).join(', ') || 'Off'}
          >
            {days[d].map((p) => {
              const s = minutesOf(p.start) ?? 0;
              const e = minutesOf(p.end) ?? 0;
              return (
                <span
                  key={`${p.start}-${p.end}`}
                  className="absolute inset-y-0 rounded"
                  style={{ left: `${(s / 1440) * 100}%`, width: `${((e - s) / 1440) * 100}%`, backgroundColor: color }}
                />
              );
            })}
          </div>
        </div>
      ))}
      <figcaption className="sr-only">
        {WEEKDAYS.map(
          (d) => `${WEEKDAY_LABELS[d]}: ${days[d].map((p) => `${p.start} to ${p.end}`).join(', ') || 'off'}`,
        ).join('. ')}
      </figcaption>
    </figure>
  );
}

/** The working plan of one practitioner at one of their branches: drawn, and edited day by day. */
export function WorkingPlanEditor({ practitioner }: { practitioner: TPractitioner }) {
  const [branchId, setBranchId] = useState(practitioner.branches[0]?._id ?? '');
  const plan = useQuery({
    ...trpc.practitioners.workingPlan.queryOptions({ id: practitioner._id, branchId }),
    enabled: branchId !== '',
  });
  if (practitioner.branches.length === 0) return <p className="text-sm text-muted-foreground">No branches yet.</p>;
  return (
    <div className="grid gap-3">
      <BranchChooser
        id={`plan-branch-${practitioner._id}`}
        value={branchId}
        onChange={setBranchId}
        branches={practitioner.branches}
      />
      <QueryView query={plan} placeholder="h-32 w-full">
        {(data) => (
          // Keyed by the saved plan, so the form starts again from what the server holds.
          <PlanForm
            key={`${branchId}-${plan.dataUpdatedAt}`}
            practitioner={practitioner}
            branchId={branchId}
            saved={data.days}
          />
        )}
      </QueryView>
    </div>
  );
}

function PlanForm({ practitioner, branchId, saved }: { practitioner: TPractitioner; branchId: string; saved: Week }) {
  const queryClient = useQueryClient();
  const [week, setWeek] = useState<Week>(saved);
  const [error, setError] = useState<string | null>(null);
  const save = useFormMutation({
    mutationOptions: trpc.practitioners.setWorkingPlan.mutationOptions,
    success: 'Working plan saved.',
    failure: 'Failed to save the working plan. Please try again.',
    after: () => queryClient.invalidateQueries(trpc.practitioners.pathFilter()),
    onError: setError,
  });
  const change = (day: Weekday, next: TPeriod[]) => {
    setError(null);
    setWeek((w) => ({ ...w, [day]: next }));
  };
  const submit = () => {
    // The server's own schema checks first, so its message shows before anything is sent.
    const parsed = ZSetWorkingPlanBody.safeParse({ branchId, days: week });
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? 'Check the periods.');
    save.mutate({ id: practitioner._id, ...parsed.data });
  };
  return (
    <div className="grid gap-3">
      <WeekDrawing days={week} color={practitioner.color} />
      <div className="grid gap-2">
        {WEEKDAYS.map((day) => (
          <fieldset key={day} className="grid gap-1 rounded-md border p-2">
            <legend className="px-1 text-sm font-medium">{WEEKDAY_LABELS[day]}</legend>
            {week[day].length === 0 && <span className="text-xs text-muted-foreground">Day off</span>}
            {week[day].map((p, i) => (
              <div key={i} className="flex flex-wrap items-center gap-2">
                <Input
                  type="time"
                  aria-label={`${WEEKDAY_LABELS[day]} period ${i + 1} start`}
                  className="w-32"
                  value={p.start}
                  onChange={(e) =>
                    change(
                      day,
                      week[day].map((x, k) => (k === i ? { ...x, start: e.target.value } : x)),
                    )
                  }
                />
                <span aria-hidden>–</span>
                <Input
                  type="time"
                  aria-label={`${WEEKDAY_LABELS[day]} period ${i + 1} end`}
                  className="w-32"
                  value={p.end === '24:00' ? '23:59' : p.end}
                  onChange={(e) =>
                    change(
                      day,
                      week[day].map((x, k) => (k === i ? { ...x, end: e.target.value } : x)),
                    )
                  }
                />
                <Button
                  type="button"
                  variant="ghost"
                  size="sm"
                  aria-label={`Remove ${WEEKDAY_LABELS[day]} period ${i + 1}`}
                  onClick={() =>
                    change(
                      day,
                      week[day].filter((_, k) => k !== i),
                    )
                  }
                >
                  Remove
                </Button>
              </div>
            ))}
            <div>
              <Button
                type="button"
                variant="outline"
                size="sm"
                onClick={() => change(day, [...week[day], { start: '09:00', end: '17:00' }])}
              >
                Add period
              </Button>
            </div>
          </fieldset>
        ))}
      </div>
      <FormError error={error} />
      <div>
        <Button type="button" onClick={submit} disabled={save.isPending}>
          Save working plan
        </Button>
      </div>
    </div>
  );
}
