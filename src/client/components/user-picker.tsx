import { useQuery } from '@tanstack/react-query';
import { useId, useState, type KeyboardEvent } from 'react';
import { ComboboxOption } from '@/components/combobox-option';
import { Input } from '@/components/ui/input';
import type { FieldControlProps } from '@/components/form-field';
import { trpc } from '@/lib/trpc';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import type { Role } from '@shared/roles';
import { displayPhone } from '@shared/schemas/person';

/**
 * A user chosen by typing (docs/users.md#finding-a-user): the text is the user's email, so a
 * whole email typed and submitted works as before; while typing, the server suggests users whose
 * name, username, email or phone contain the text, and picking one writes their email. A combobox
 * (WAI-ARIA APG): Down and Up move through the suggestions, Enter picks, Escape closes the list.
 */
export function UserPicker({
  control,
  role,
  accept,
  placeholder,
}: {
  control: FieldControlProps;
  role?: Role;
  /** Which of the server's suggestions to offer (the batch form leaves students and customers out). */
  accept?: (user: { role: Role }) => boolean;
  placeholder?: string;
}) {
  const text = typeof control.value === 'string' ? control.value : '';
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const query = useDebouncedValue(text.trim(), 200);
  const listId = useId();
  const search = useQuery({
    ...trpc.users.search.queryOptions({ query, role, limit: 8 }),
    enabled: open && query.length >= 2,
    placeholderData: (previous) => previous,
  });
  const found = open && query.length >= 2 ? (search.data ?? []) : [];
  const users = accept ? found.filter(accept) : found;
  // A whole email typed is an answer already: the list would only cover the form.
  const typedEmail = text.trim().toLowerCase();
  const shown = users.length > 0 && !users.some((u) => u.email === typedEmail);

  const pick = (index: number) => {
    const user = users[index];
    if (!user) return;
    control.onChange(user.email);
    setOpen(false);
    setActive(-1);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      setOpen(true);
      if (!users.length) return;
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setActive((i) => (i + step + users.length) % users.length);
    } else if (e.key === 'Enter' && shown && active >= 0) {
      // Enter picks the highlighted user instead of submitting the form.
      e.preventDefault();
      pick(active);
    } else if (e.key === 'Escape' && shown) {
      e.preventDefault();
      e.stopPropagation();
      setOpen(false);
      setActive(-1);
    }
  };

  return (
    <div className="relative">
      <Input
        {...control}
        value={text}
        type="text"
        inputMode="email"
        autoComplete="off"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={shown}
        aria-controls={listId}
        aria-activedescendant={shown && active >= 0 ? `${listId}-${active}` : undefined}
        placeholder={placeholder}
        onChange={(e) => {
          control.onChange(e.target.value);
          setOpen(true);
          setActive(-1);
        }}
        onKeyDown={onKeyDown}
        onBlur={() => {
          setOpen(false);
          control.onBlur();
        }}
      />
      <ul
        id={listId}
        role="listbox"
        aria-label="Matching users"
        hidden={!shown}
        className="absolute z-50 mt-1 max-h-72 w-full overflow-auto rounded-md border bg-popover p-1 text-popover-foreground shadow-md"
      >
        {users.map((u, i) => (
          <ComboboxOption
            key={u._id}
            listId={listId}
            index={i}
            active={i === active}
            onActive={setActive}
            onPick={() => pick(i)}
          >
            <span className="font-medium">{u.fullName}</span>{' '}
            <span className="text-muted-foreground">
              {u.username} · {u.email}
              {u.phone ? ` · ${displayPhone(u.phone)}` : ''}
            </span>
          </ComboboxOption>
        ))}
      </ul>
    </div>
  );
}
