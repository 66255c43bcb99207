import { NativeSelect } from '@/components/native-select';

/** Which branch a card or a working plan is shown for: a select with its Branch label above it. */
export function BranchChooser({
  id,
  value,
  onChange,
  branches,
}: {
  id: string;
  value: string;
  onChange: (branchId: string) => void;
  branches: { _id: string; name: string }[];
}) {
  return (
    <div className="grid gap-1 sm:max-w-xs">
      <label htmlFor={id} className="text-sm font-medium">
        Branch
      </label>
      <NativeSelect
        id={id}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        choices={branches.map((b) => ({ value: b._id, label: b.name }))}
      />
    </div>
  );
}
