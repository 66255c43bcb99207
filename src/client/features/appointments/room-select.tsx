import { useQuery } from '@tanstack/react-query';
import { ChoiceSelect } from '@/components/native-select';
import { trpc } from '@/lib/trpc';

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
