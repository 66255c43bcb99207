import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { PlusIcon, Trash2Icon } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { FormDialog } from '@/components/form-dialog';
import { NativeSelect } from '@/components/native-select';
import { UserPicker } from '@/components/user-picker';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { explainedMessage } from '@/lib/errors';
import { trpc, type RouterOutputs } from '@/lib/trpc';
import { WEEKDAYS, type Weekday } from '@shared/schemas/classes';
import { LabelledField, LabelledInput } from '@/components/labelled-field';

type Batch = RouterOutputs['batches']['get'];
interface Slot {
  weekday: Weekday;
  start: string;
  end: string;
  roomId: string;
}

/** Anyone may teach but students and customers. */
const teaches = (u: { role: string }) => u.role !== 'student' && u.role !== 'customer';

const weekdayLabel = (w: string) => w[0]!.toUpperCase() + w.slice(1);

/**
 * Create or edit a batch (docs/classes.md#batches): its course, branch, instructor, dates, seats
 * and a weekly timetable of slots (weekday, start, end, room). The server checks everything; its
 * message shows above the buttons.
 */
export function BatchFormDialog({ batch, onClose }: { batch?: Batch; onClose: () => void }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [name, setName] = useState(batch?.name ?? '');
  const [courseId, setCourseId] = useState(batch?.course?._id ?? '');
  const [branchId, setBranchId] = useState(batch?.branch?._id ?? '');
  // The picker's text is an e-mail; untouched on an edit, the batch keeps its instructor.
  const [instructorEmail, setInstructorEmail] = useState<string | null>(null);
  const [startDate, setStartDate] = useState(batch?.startDate ?? '');
  const [endDate, setEndDate] = useState(batch?.endDate ?? '');
  const [capacity, setCapacity] = useState(String(batch?.capacity ?? 20));
  const [slots, setSlots] = useState<Slot[]>(
    batch?.timetable.map((s) => ({ weekday: s.weekday, start: s.start, end: s.end, roomId: s.roomId ?? '' })) ?? [
      { weekday: 'monday', start: '18:00', end: '20:00', roomId: '' },
    ],
  );
  const [error, setError] = useState('');

  const courses = useQuery(trpc.courses.options.queryOptions());
  const branches = useQuery(trpc.branches.options.queryOptions());
  const current = useQuery({
    ...trpc.users.get.queryOptions({ id: batch?.instructor?._id ?? '' }),
    enabled: !!batch?.instructor && instructorEmail === null,
  });
  const rooms = useQuery({ ...trpc.rooms.list.queryOptions({ branchId }), enabled: !!branchId });

  const done = async (b: Batch, verb: string) => {
    toast.success(`${verb} ${b.name}.`);
    await queryClient.invalidateQueries({ queryKey: trpc.batches.pathKey() });
    onClose();
    if (!batch) await navigate({ to: '/batches/$batchId', params: { batchId: b._id } });
  };
  const onError = (err: unknown) => setError(explainedMessage(err, 'The batch was not saved.'));
  const create = useMutation(trpc.batches.create.mutationOptions({ onSuccess: (b) => done(b, 'Created'), onError }));
  const update = useMutation(trpc.batches.update.mutationOptions({ onSuccess: (b) => done(b, 'Saved'), onError }));

  /** The chosen instructor's id: the batch's own when the picker is untouched, else the user of the e-mail. */
  const instructorIdOf = async (): Promise<string | null> => {
    if (instructorEmail === null) return batch?.instructor?._id ?? '';
    const typed = instructorEmail.trim().toLowerCase();
    if (!typed) return '';
    const found = await queryClient.fetchQuery(trpc.users.search.queryOptions({ query: typed, limit: 8 }));
    const user = found.find((u) => u.email === typed);
    if (!user) setError('No user has this e-mail: type a name or e-mail and choose the instructor.');
    else if (!teaches(user)) setError('A student or customer cannot be the instructor.');
    else return user._id;
    return null;
  };

  const submit = async () => {
    setError('');
    const instructorId = await instructorIdOf();
    if (instructorId === null) return;
    const values = {
      name,
      courseId,
      branchId,
      instructorId,
      startDate,
      endDate,
      capacity: Number(capacity),
      timetable: slots.map((s) => ({ ...s, roomId: s.roomId || null })),
    };
    if (batch) update.mutate({ id: batch._id, ...values });
    else create.mutate(values);
  };
  const setSlot = (i: number, change: Partial<Slot>) =>
    setSlots((all) => all.map((s, j) => (j === i ? { ...s, ...change } : s)));

  return (
    <FormDialog
      title={batch ? 'Edit batch' : 'New batch'}
      description="Sessions are made from the timetable for every date from the start to the end, except the branch's closed days."
      className="max-h-[90vh] overflow-y-auto sm:max-w-2xl"
      pending={create.isPending || update.isPending}
      submitLabel={batch ? 'Save batch' : 'Create batch'}
      closeLabel="Cancel"
      onClose={onClose}
      onSubmit={() => void submit()}
    >
      <div className="grid gap-3 sm:grid-cols-2">
        <LabelledInput id="batch-name" label="Name" className="sm:col-span-2" value={name} onValueChange={setName} />
        <LabelledField id="batch-course" label="Course">
          <NativeSelect
            id="batch-course"
            value={courseId}
            onChange={(e) => setCourseId(e.target.value)}
            empty="Choose a course"
            choices={courses.data?.map((c) => ({ value: c._id, label: c.courseName }))}
          />
        </LabelledField>
        <LabelledField id="batch-branch" label="Branch">
          <NativeSelect
            id="batch-branch"
            value={branchId}
            onChange={(e) => setBranchId(e.target.value)}
            empty="Choose a branch"
            choices={branches.data?.map((b) => ({ value: b._id, label: b.name }))}
          />
        </LabelledField>
        <LabelledField id="batch-instructor" label="Instructor">
          <UserPicker
            placeholder="Type a name or e-mail"
            accept={teaches}
            control={{
              id: 'batch-instructor',
              name: 'instructor',
              value: instructorEmail ?? current.data?.email ?? '',
              onChange: (v) => setInstructorEmail(typeof v === 'string' ? v : ''),
              onBlur: () => {},
              ref: () => {},
              'aria-invalid': false,
            }}
          />
        </LabelledField>
        <LabelledInput
          id="batch-capacity"
          label="Seats"
          type="number"
          min={1}
          value={capacity}
          onValueChange={setCapacity}
        />
        <LabelledInput id="batch-start" label="Start date" type="date" value={startDate} onValueChange={setStartDate} />
        <LabelledInput id="batch-end" label="End date" type="date" value={endDate} onValueChange={setEndDate} />
      </div>
      <fieldset className="space-y-2">
        <legend className="mb-1 text-sm font-medium">Weekly timetable</legend>
        {slots.map((s, i) => (
          <div
            key={i}
            role="group"
            aria-label={`Slot ${i + 1}`}
            className="grid grid-cols-2 items-end gap-2 rounded-md border p-2 sm:grid-cols-[1fr_6rem_6rem_1fr_auto]"
          >
            <LabelledField id={`slot-${i}-weekday`} label="Weekday">
              <NativeSelect
                id={`slot-${i}-weekday`}
                value={s.weekday}
                onChange={(e) => setSlot(i, { weekday: e.target.value as Weekday })}
                choices={WEEKDAYS.map((w) => ({ value: w, label: weekdayLabel(w) }))}
              />
            </LabelledField>
            <LabelledField id={`slot-${i}-start`} label="Start">
              <Input
                id={`slot-${i}-start`}
                type="time"
                value={s.start}
                onChange={(e) => setSlot(i, { start: e.target.value })}
              />
            </LabelledField>
            <LabelledField id={`slot-${i}-end`} label="End">
              <Input
                id={`slot-${i}-end`}
                type="time"
                value={s.end}
                onChange={(e) => setSlot(i, { end: e.target.value })}
              />
            </LabelledField>
            <LabelledField id={`slot-${i}-room`} label="Room">
              <NativeSelect
                id={`slot-${i}-room`}
                value={s.roomId}
                onChange={(e) => setSlot(i, { roomId: e.target.value })}
                empty="No room"
                choices={rooms.data?.data.map((r) => ({ value: r._id, label: r.name }))}
              />
            </LabelledField>
            <Button
              type="button"
              variant="ghost"
              size="icon"
              aria-label={`Remove slot ${i + 1}`}
              onClick={() => setSlots((all) => all.filter((_, j) => j !== i))}
            >
              <Trash2Icon aria-hidden />
            </Button>
          </div>
        ))}
        <Button
          type="button"
          variant="outline"
          size="sm"
          onClick={() => setSlots((all) => [...all, { weekday: 'monday', start: '18:00', end: '20:00', roomId: '' }])}
        >
          <PlusIcon aria-hidden /> Add slot
        </Button>
      </fieldset>
      {error && (
        <Alert variant="destructive">
          <AlertDescription>{error}</AlertDescription>
        </Alert>
      )}
    </FormDialog>
  );
}
