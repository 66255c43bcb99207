import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { NativeSelect } from '@/components/native-select';
import { Label } from '@/components/ui/label';
import { cn } from '@/lib/utils';
import { trpc } from '@/lib/trpc';

/** A label above its control (in the dialogs and the calendar's filters). */
export function LabelledField({
  id,
  label,
  className,
  children,
}: {
  id: string;
  label: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={cn('space-y-1', className)}>
      <Label htmlFor={id}>{label}</Label>
      {children}
    </div>
  );
}

export interface Choice {
  value: string;
  label: string;
}

/** A select of named choices; `empty` is a first choice of value '' ("No room", "Choose…"). */
export function ChoiceSelect({
  id,
  value,
  onChange,
  choices,
  empty,
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  choices: readonly Choice[];
  empty?: string;
}) {
  return (
    <NativeSelect id={id} value={value} onChange={(e) => onChange(e.target.value)}>
      {empty !== undefined && <option value="">{empty}</option>}
      {choices.map((c) => (
        <option key={c.value} value={c.value}>
          {c.label}
        </option>
      ))}
    </NativeSelect>
  );
}

/** The branch's rooms, with "No room" first. */
export function RoomSelect({
  id,
  branchId,
  value,
  onChange,
}: {
  id: string;
  branchId: string;
  value: string;
  onChange: (roomId: string) => void;
}) {
  const rooms = useQuery({ ...trpc.rooms.list.queryOptions({ branchId }), enabled: !!branchId });
  const choices = (rooms.data?.data ?? []).map((r) => ({ value: r._id, label: r.name }));
  return <ChoiceSelect id={id} value={value} onChange={onChange} choices={choices} empty="No room" />;
}
