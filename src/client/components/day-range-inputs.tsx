import { LabelledField } from '@/components/labelled-field';
import { Input } from '@/components/ui/input';

/**
 * From and To days as two labelled date boxes whose ids start with `id` (a report's range, a
 * batch's register).
 */
export function DayRangeInputs({
  id,
  from,
  to,
  onFrom,
  onTo,
}: {
  id: string;
  from: string;
  to: string;
  onFrom: (day: string) => void;
  onTo: (day: string) => void;
}) {
  return (
    <>
      <LabelledField id={`${id}-from`} label="From">
        <Input id={`${id}-from`} type="date" value={from} onChange={(e) => onFrom(e.target.value)} />
      </LabelledField>
      <LabelledField id={`${id}-to`} label="To">
        <Input id={`${id}-to`} type="date" value={to} onChange={(e) => onTo(e.target.value)} />
      </LabelledField>
    </>
  );
}
