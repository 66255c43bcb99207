import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { SearchIcon } from 'lucide-react';
import { useEffect, useId, useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import { ComboboxOption } from '@/components/combobox-option';
import { withWrapPoints } from '@/components/person-name';
import { Input } from '@/components/ui/input';
import { trpc } from '@/lib/trpc';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { cn } from '@/lib/utils';
import { SEARCH_MIN, type SearchKind, type TSearchHit } from '@shared/schemas/search';

const KIND_LABELS: Record<SearchKind, string> = {
  user: 'Person',
  receipt: 'Receipt',
  enrollment: 'Enrollment',
  booking: 'Booking',
  course: 'Course',
  treatment: 'Treatment',
};

const SHORTCUT_HINT = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.userAgent) ? '⌘K' : 'Ctrl K';

/** Typing in a field must stay typing: "/" only jumps to the search from outside one. */
function isEditable(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

/** Ctrl+K or Cmd+K anywhere, and "/" outside a text field, put the focus in the search box. */
function useFocusShortcut(input: RefObject<HTMLInputElement | null>) {
  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      const ctrlK = e.key.toLowerCase() === 'k' && (e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey;
      const slash = e.key === '/' && !e.ctrlKey && !e.metaKey && !e.altKey && !isEditable(e.target);
      if (!ctrlK && !slash) return;
      e.preventDefault();
      input.current?.focus();
      input.current?.select();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [input]);
}

/**
 * The header search (docs/architecture.md#search): people, receipts, courses, treatments and the
 * people's enrolments and bookings, found on the server as the staff member types. A combobox
 * (WAI-ARIA APG, list autocomplete): Down and Up move through the hits, Enter opens the chosen one
 * (the first when none is chosen), Escape closes the list, then clears the text.
 */
export function GlobalSearch({ className }: { className?: string }) {
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const input = useRef<HTMLInputElement>(null);
  const listId = useId();
  const navigate = useNavigate();
  useFocusShortcut(input);

  const q = useDebouncedValue(text.trim(), 200);
  const ready = q.length >= SEARCH_MIN && text.trim().length >= SEARCH_MIN;
  const search = useQuery({
    ...trpc.search.global.queryOptions({ q }),
    enabled: ready,
    placeholderData: (previous) => previous,
  });
  const hits: TSearchHit[] = ready ? (search.data?.data ?? []) : [];
  const settled = ready && !search.isFetching && !search.isPlaceholderData;
  const shown = open && ready && (hits.length > 0 || settled || search.isError);

  const close = () => {
    setOpen(false);
    setActive(-1);
  };
  const go = (hit: TSearchHit | undefined) => {
    if (!hit) return;
    close();
    setText('');
    input.current?.blur();
    void navigate({ href: hit.url });
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      setOpen(true);
      if (!hits.length) return;
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setActive((i) => (i < 0 && step < 0 ? hits.length - 1 : (i + step + hits.length) % hits.length));
    } else if (e.key === 'Enter') {
      if (!hits.length) return;
      e.preventDefault();
      go(hits[active >= 0 ? active : 0]);
    } else if (e.key === 'Escape') {
      e.preventDefault();
      if (shown) close();
      else if (text) setText('');
      else input.current?.blur();
    }
  };

  const status = !ready
    ? ''
    : search.isError
      ? 'The search failed. Please try again.'
      : settled
        ? hits.length
          ? `${hits.length} ${hits.length === 1 ? 'result' : 'results'}`
          : `No matches for “${q}”.`
        : '';

  return (
    <div className={cn('relative w-full max-w-xl', className)}>
      <SearchIcon
        aria-hidden
        className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-foreground"
      />
      <Input
        ref={input}
        type="text"
        enterKeyHint="search"
        autoComplete="off"
        spellCheck={false}
        role="combobox"
        aria-label="Search everything"
        aria-autocomplete="list"
        aria-expanded={shown}
        aria-controls={listId}
        aria-activedescendant={shown && active >= 0 ? `${listId}-${active}` : undefined}
        aria-keyshortcuts="Control+K Meta+K /"
        placeholder="Search people, receipts, courses…"
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setOpen(true);
          setActive(-1);
        }}
        onFocus={() => setOpen(true)}
        onBlur={close}
        onKeyDown={onKeyDown}
        className="pr-3 pl-8 sm:pr-14"
      />
      <kbd
        aria-hidden
        className="pointer-events-none absolute top-1/2 right-2 hidden -translate-y-1/2 rounded border bg-muted px-1.5 font-mono text-[10px] text-muted-foreground sm:block"
      >
        {SHORTCUT_HINT}
      </kbd>
      <span role="status" className="sr-only">
        {open ? status : ''}
      </span>
      <div
        hidden={!shown}
        data-testid="global-search-results"
        // On a phone the list spans the screen below the header; wider, it hangs under the box.
        className="fixed inset-x-2 top-[var(--header-height)] z-50 rounded-md border bg-popover p-1 text-popover-foreground shadow-md sm:absolute sm:inset-x-0 sm:top-full sm:mt-1"
      >
        <ul id={listId} role="listbox" aria-label="Search results" className="max-h-[70svh] overflow-y-auto">
          {hits.map((hit, i) => (
            <ComboboxOption
              key={`${hit.kind}-${hit.id}`}
              listId={listId}
              index={i}
              active={i === active}
              onActive={setActive}
              onPick={() => go(hit)}
              className="flex items-baseline gap-2"
            >
              <span className="min-w-0 flex-1">
                {/* A long name or address wraps at its words, dots and @ rather than hide behind an ellipsis. */}
                <span className="block font-medium break-words">{withWrapPoints(hit.title)}</span>
                <span className="block text-xs break-words text-muted-foreground">{withWrapPoints(hit.subtitle)}</span>
              </span>
              <span className="shrink-0 text-xs text-muted-foreground">{KIND_LABELS[hit.kind]}</span>
            </ComboboxOption>
          ))}
        </ul>
        {hits.length === 0 && <p className="px-2 py-1.5 text-sm text-muted-foreground">{status}</p>}
      </div>
    </div>
  );
}
