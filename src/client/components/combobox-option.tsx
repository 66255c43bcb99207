import type { ReactNode } from 'react';
import { cn } from '@/lib/utils';

/**
 * One suggestion in a combobox's list (WAI-ARIA APG): its id is `${listId}-${index}` for the box's
 * aria-activedescendant, it is highlighted while active, the pointer over it makes it the active
 * one, and a click picks it without taking the focus from the box.
 */
export function ComboboxOption({
  listId,
  index,
  active,
  onActive,
  onPick,
  className,
  children,
}: {
  listId: string;
  index: number;
  active: boolean;
  onActive: (index: number) => void;
  onPick: () => void;
  className?: string;
  children: ReactNode;
}) {
  return (
    <li
      id={`${listId}-${index}`}
      role="option"
      aria-selected={active}
      // Keep the focus in the box: a click picks before the blur closes the list.
      onMouseDown={(e) => e.preventDefault()}
      onClick={onPick}
      onMouseMove={() => onActive(index)}
      className={cn(
        'cursor-pointer rounded-sm px-2 py-1.5 text-sm',
        className,
        active && 'bg-accent text-accent-foreground',
      )}
    >
      {children}
    </li>
  );
}
