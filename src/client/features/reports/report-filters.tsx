import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { DatePicker } from '@/components/date-picker';
import { Input } from '@/components/ui/input';
import { LabelledField, LabelledInput } from '@/components/labelled-field';
import { onSubmitted } from '@/lib/utils';

export interface FilterValues {
  category: string;
  min: string;
  max: string;
  startDate: string;
  endDate: string;
}

export const EMPTY_FILTERS: FilterValues = { category: '', min: '', max: '', startDate: '', endDate: '' };

/** The query string the report paths take: fee for courses, price for treatments. */
export function filtersToQuery(kind: 'course' | 'treatment', f: FilterValues): URLSearchParams {
  const q = new URLSearchParams();
  if (f.category.trim()) q.set('category', f.category.trim());
  if (f.min.trim()) q.set(kind === 'course' ? 'minFee' : 'minPrice', f.min.trim());
  if (f.max.trim()) q.set(kind === 'course' ? 'maxFee' : 'maxPrice', f.max.trim());
  if (f.startDate) q.set('startDate', f.startDate);
  if (f.endDate) q.set('endDate', f.endDate);
  return q;
}

export function ReportFilters({
  kind,
  categories,
  onApply,
}: {
  kind: 'course' | 'treatment';
  categories: string[];
  onApply: (f: FilterValues) => void;
}) {
  const [draft, setDraft] = useState<FilterValues>(EMPTY_FILTERS);
  const set = (k: keyof FilterValues) => (value: string) => setDraft((d) => ({ ...d, [k]: value }));
  const money = kind === 'course' ? 'Fee' : 'Price';
  const listId = `${kind}-categories`;
  return (
    <form
      className="grid gap-4 sm:grid-cols-2 lg:grid-cols-5"
      aria-label={`${kind} report filters`}
      onSubmit={onSubmitted(() => onApply(draft))}
    >
      <LabelledField id={`${kind}-category`} label="Category">
        <Input
          id={`${kind}-category`}
          list={listId}
          value={draft.category}
          onChange={(e) => set('category')(e.target.value)}
          placeholder="All categories"
        />
        <datalist id={listId}>
          {categories.map((c) => (
            <option key={c} value={c} />
          ))}
        </datalist>
      </LabelledField>
      <LabelledInput
        id={`${kind}-min`}
        label={`Min ${money} (Rs.)`}
        type="number"
        min={0}
        step="0.01"
        value={draft.min}
        onValueChange={set('min')}
      />
      <LabelledInput
        id={`${kind}-max`}
        label={`Max ${money} (Rs.)`}
        type="number"
        min={0}
        step="0.01"
        value={draft.max}
        onValueChange={set('max')}
      />
      <LabelledField id={`${kind}-start`} label="Start Date">
        <DatePicker
          id={`${kind}-start`}
          label="Start Date"
          clearable
          value={draft.startDate}
          onChange={(startDate) => setDraft((d) => ({ ...d, startDate }))}
        />
      </LabelledField>
      <LabelledField id={`${kind}-end`} label="End Date">
        <DatePicker
          id={`${kind}-end`}
          label="End Date"
          clearable
          value={draft.endDate}
          onChange={(endDate) => setDraft((d) => ({ ...d, endDate }))}
        />
      </LabelledField>
      <div className="flex gap-2 sm:col-span-2 lg:col-span-5">
        <Button type="submit">Apply Filters</Button>
        <Button
          type="button"
          variant="outline"
          onClick={() => {
            setDraft(EMPTY_FILTERS);
            onApply(EMPTY_FILTERS);
          }}
        >
          Reset
        </Button>
      </div>
    </form>
  );
}
