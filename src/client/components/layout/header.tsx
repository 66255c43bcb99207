import { Link } from '@tanstack/react-router';
import { LogOutIcon, PanelLeftIcon, UserIcon } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { UserAvatar } from '@/components/user-avatar';
import { useCurrentUser, useSignOut } from '@/lib/auth';
import { ROLE_LABELS } from '@shared/roles';

export function Header({ collapsed, narrow, onToggle }: { collapsed: boolean; narrow: boolean; onToggle: () => void }) {
  const left = narrow ? '0px' : collapsed ? 'var(--sidebar-width-collapsed)' : 'var(--sidebar-width)';
  return (
    <header
      data-testid="header"
      style={{ left }}
      className="fixed top-0 right-0 z-30 flex h-[var(--header-height)] items-center justify-between border-b bg-background/95 px-4 backdrop-blur transition-[left] duration-200 ease-out supports-[backdrop-filter]:bg-background/80"
    >
      <Button
        variant="ghost"
        size="icon"
        aria-label="Toggle sidebar"
        aria-controls="app-sidebar"
        aria-expanded={!collapsed}
        onClick={onToggle}
      >
        <PanelLeftIcon className="size-5" />
      </Button>
      <ProfileMenu />
    </header>
  );
}

/** docs/product.md#screens-and-routes: the profile picture opens a menu on hover (and on click or focus, for touch and keyboard). */
function ProfileMenu() {
  const user = useCurrentUser();
  const { signOut, isPending } = useSignOut();
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const closeTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // A mouse opens the menu on hover just before its click lands: that click must not close it again.
  const openedByHover = useRef(false);

  const show = () => {
    clearTimeout(closeTimer.current);
    if (!open) openedByHover.current = true;
    setOpen(true);
  };
  const toggle = () => {
    if (open && openedByHover.current) {
      openedByHover.current = false;
      return;
    }
    openedByHover.current = false;
    setOpen(!open);
  };
  const hideSoon = () => {
    clearTimeout(closeTimer.current);
    closeTimer.current = setTimeout(() => setOpen(false), 150);
  };

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (e: PointerEvent) => {
      if (!rootRef.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open]);
  useEffect(() => () => clearTimeout(closeTimer.current), []);

  return (
    <div
      ref={rootRef}
      className="relative"
      onMouseEnter={show}
      onMouseLeave={hideSoon}
      onKeyDown={(e) => {
        if (e.key === 'Escape') setOpen(false);
      }}
    >
      {/* The button is named by what it shows (WCAG 2.5.3, label in name): the user's name and role,
          kept for screen readers where a phone hides them, then what it opens. */}
      <button
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={toggle}
        className="flex items-center gap-3 rounded-full outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
      >
        <span className="sr-only text-right leading-tight sm:not-sr-only">
          <span className="block text-sm font-medium">{user.fullName || user.username}</span>
          <span className="block text-xs text-muted-foreground">{ROLE_LABELS[user.role] ?? user.role}</span>
        </span>
        <span className="sr-only">, profile menu</span>
        <UserAvatar user={user} alt="" />
      </button>
      {open && (
        <div className="absolute top-full right-0 z-50 pt-2">
          <div
            role="menu"
            aria-label="Profile"
            className="w-56 animate-fade-in rounded-md border bg-popover p-1 text-popover-foreground shadow-md"
          >
            <div className="px-2 py-1.5">
              <p className="truncate text-sm font-medium">{user.fullName || user.username}</p>
              <p className="truncate text-xs text-muted-foreground">{user.email}</p>
            </div>
            <div className="-mx-1 my-1 h-px bg-border" />
            <Link
              to="/users/profile"
              role="menuitem"
              onClick={() => setOpen(false)}
              className="flex items-center gap-2 rounded-sm px-2 py-1.5 text-sm outline-none hover:bg-accent focus-visible:bg-accent"
            >
              <UserIcon className="size-4" /> My Profile
            </Link>
            <button
              type="button"
              role="menuitem"
              disabled={isPending}
              onClick={() => void signOut()}
              className="flex w-full items-center gap-2 rounded-sm px-2 py-1.5 text-left text-sm text-destructive outline-none hover:bg-accent focus-visible:bg-accent disabled:opacity-50"
            >
              <LogOutIcon className="size-4" /> Logout
            </button>
          </div>
        </div>
      )}
    </div>
  );
}
