import { LabelledInput } from '@/components/labelled-field';

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
      <LabelledInput id={`${id}-from`} label="From" type="date" value={from} onValueChange={onFrom} />
      <LabelledInput id={`${id}-to`} label="To" type="date" value={to} onValueChange={onTo} />
    </>
  );
}
