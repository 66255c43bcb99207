import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { XIcon } from 'lucide-react';
import { useId, useState } from 'react';
import { DateRangeFilter, FilterField, TitledSelectFilter } from '@/components/filter-field';
import { FilteredLog } from '@/components/filtered-log';
import { TableStates } from '@/components/list-card';
import { useIsNarrow } from '@/components/layout/use-sidebar-state';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { trpc } from '@/lib/trpc';
import { searchFilters } from '@/lib/list-search';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import type { TMessageItem } from '@shared/schemas/messages';
import {
  CHANNEL_LABELS,
  clockOptions,
  EVENT_LABELS,
  messageLogOptions,
  STATUS_LABELS,
  type MessagesSearch,
} from './message-queries';
import { LogCard, LogRow } from './message-log-entries';

export function MessageLog({
  search,
  onSearchChange,
}: {
  search: MessagesSearch;
  onSearchChange: (next: MessagesSearch) => void;
}) {
  const clock = useQuery(clockOptions());
  const timeZone = clock.data?.timeZone ?? 'Asia/Colombo';
  const list = useInfiniteQuery({ ...messageLogOptions(search, timeZone), enabled: clock.isSuccess });
  const { set, filter, filtered } = searchFilters(search, onSearchChange, 'tab');
  const rows = list.data?.pages.flatMap((p) => p.data) ?? [];
  const narrow = useIsNarrow();
  const emptyText =
    list.data && rows.length === 0
      ? filtered
        ? 'No messages match these filters.'
        : 'No messages have been planned yet.'
      : undefined;
  const filterRecipient = (m: TMessageItem) => set({ recipient: m.recipient._id, recipientName: m.recipient.fullName });

  return (
    <FilteredLog
      filtered={filtered}
      onClear={() => onSearchChange({ tab: search.tab })}
      list={list}
      failed={
        list.isError || clock.isError
          ? { error: list.error ?? clock.error, onRetry: () => void (clock.isError ? clock.refetch() : list.refetch()) }
          : null
      }
      shown={
        <>
          Showing {rows.length} {rows.length === 1 ? 'message' : 'messages'}, newest first
        </>
      }
      filters={
        <>
          <TitledSelectFilter
            title="Status"
            all="All statuses"
            options={STATUS_LABELS}
            className="w-36"
            {...filter('status')}
          />
          <TitledSelectFilter
            title="Channel"
            all="All channels"
            options={CHANNEL_LABELS}
            className="w-32"
            {...filter('channel')}
          />
          <TitledSelectFilter
            title="Message"
            all="All messages"
            options={EVENT_LABELS}
            className="w-52"
            {...filter('event')}
          />
          <RecipientFilter
            recipient={
              search.recipient ? { id: search.recipient, name: search.recipientName ?? 'Chosen person' } : null
            }
            onChange={(r) => set({ recipient: r?.id, recipientName: r?.name })}
          />
          <DateRangeFilter from={filter('from')} to={filter('to')} />
        </>
      }
    >
      {narrow ? (
        // A phone gets one card per message: six columns do not fit 390 px without scrolling sideways.
        <ul aria-label="Message log" className="grid gap-3">
          {list.isPending && <Skeleton className="h-32 w-full" />}
          {emptyText && <li className="py-10 text-center text-sm text-muted-foreground">{emptyText}</li>}
          {rows.map((m) => (
            <LogCard key={m._id} message={m} onRecipient={() => filterRecipient(m)} />
          ))}
        </ul>
      ) : (
        <Table containerClassName="rounded-md border" aria-label="Message log">
          <TableHeader className="bg-background">
            <TableRow>
              <TableHead className="w-28">Planned</TableHead>
              <TableHead className="w-44">Message</TableHead>
              <TableHead className="w-48">Recipient</TableHead>
              <TableHead className="w-48">Status</TableHead>
              <TableHead>Text</TableHead>
              <TableHead className="w-px">
                <span className="sr-only">Actions</span>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            <TableStates columns={6} loading={list.isPending} empty={emptyText} />
            {rows.map((m) => (
              <LogRow key={m._id} message={m} onRecipient={() => filterRecipient(m)} />
            ))}
          </TableBody>
        </Table>
      )}
    </FilteredLog>
  );
}

/** Choose a person by typing part of a name, e-mail or phone; the chosen one shows as a chip. */
function RecipientFilter({
  recipient,
  onChange,
}: {
  recipient: { id: string; name: string } | null;
  onChange: (r: { id: string; name: string } | null) => void;
}) {
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const listId = useId();
  const query = useDebouncedValue(text.trim(), 200);
  const found = useQuery({
    ...trpc.users.search.queryOptions({ query, limit: 8 }),
    enabled: open && query.length >= 2,
  });
  const people = open && query.length >= 2 ? (found.data ?? []) : [];
  const [active, setActive] = useState(-1);
  const choose = (p: { _id: string; fullName: string }) => {
    setText('');
    setOpen(false);
    setActive(-1);
    onChange({ id: p._id, name: p.fullName });
  };

  if (recipient)
    return (
      <FilterField label="Recipient">
        <span className="flex h-9 items-center gap-1 rounded-md border px-2 text-sm">
          <span className="max-w-48 truncate">{recipient.name}</span>
          <Button
            variant="ghost"
            size="icon-sm"
            aria-label={`Show every recipient, not only ${recipient.name}`}
            onClick={() => onChange(null)}
          >
            <XIcon />
          </Button>
        </span>
      </FilterField>
    );
  return (
    <div className="relative grid gap-1 text-sm">
      <label htmlFor={`${listId}-input`} className="text-muted-foreground">
        Recipient
      </label>
      <Input
        id={`${listId}-input`}
        className="w-40"
        placeholder="Name or e-mail"
        role="combobox"
        aria-expanded={people.length > 0}
        aria-controls={listId}
        aria-autocomplete="list"
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setOpen(true);
        }}
        onBlur={() => setTimeout(() => setOpen(false), 150)}
        aria-activedescendant={active >= 0 && people[active] ? `${listId}-${active}` : undefined}
        onKeyDown={(e) => {
          // Down and Up move through the people found, Enter picks, Escape closes the list.
          if (e.key === 'Escape') setOpen(false);
          else if ((e.key === 'ArrowDown' || e.key === 'ArrowUp') && people.length) {
            e.preventDefault();
            const step = e.key === 'ArrowDown' ? 1 : -1;
            setActive((i) => (i + step + people.length) % people.length);
          } else if (e.key === 'Enter' && people[active]) {
            e.preventDefault();
            choose(people[active]);
          }
        }}
      />
      {people.length > 0 && (
        <ul
          id={listId}
          role="listbox"
          aria-label="People"
          className="absolute top-full z-20 mt-1 w-64 max-w-[80vw] rounded-md border bg-popover p-1 shadow-md"
        >
          {people.map((p, i) => (
            <li
              key={p._id}
              id={`${listId}-${i}`}
              role="option"
              aria-selected={i === active}
              className={`cursor-pointer rounded-sm px-2 py-1.5 hover:bg-accent ${i === active ? 'bg-accent' : ''}`}
              onMouseDown={(e) => {
                e.preventDefault();
                choose(p);
              }}
            >
              <div>{p.fullName}</div>
              <div className="text-xs text-muted-foreground">{p.email}</div>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
