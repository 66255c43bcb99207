import { SearchIcon } from 'lucide-react';
import { useRouter } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { Input } from '@/components/ui/input';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { cn } from '@/lib/utils';

/** A search box that reports its value once typing pauses (lists search on the server). */
export function SearchInput({
  value,
  onChange,
  placeholder = 'Search...',
  className,
  'aria-label': ariaLabel = 'Search',
}: {
  value: string;
  onChange: (value: string) => void;
  placeholder?: string;
  className?: string;
  'aria-label'?: string;
}) {
  const [text, setText] = useState(value);
  const debounced = useDebouncedValue(text, 300);
  const router = useRouter();
  const pathAtMount = useRef(router.state.location.pathname);
  useEffect(() => {
    if (debounced === value) return;
    // A row link clicked before typing settled starts a navigation while this list is still
    // shown; reporting now would pull the user back to the list.
    if (router.state.status === 'pending' || router.state.location.pathname !== pathAtMount.current) return;
    onChange(debounced);
    // Only a settled edit reports; a new `value` from outside must not echo back.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [debounced]);
  return (
    <div className={cn('relative w-full max-w-xs', className)}>
      <SearchIcon className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-foreground" />
      <Input
        type="search"
        value={text}
        onChange={(e) => setText(e.target.value)}
        placeholder={placeholder}
        aria-label={ariaLabel}
        className="pl-8"
      />
    </div>
  );
}
