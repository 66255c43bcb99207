import { Link } from '@tanstack/react-router';
import { LogOutIcon, PanelLeftIcon, UserIcon } from 'lucide-react';
import { useEffect, useRef, useState, type PointerEvent } from 'react';
import { GlobalSearch } from '@/components/global-search';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
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
      <GlobalSearch className="mx-2 min-w-0 flex-1 sm:mx-4" />
      <ProfileMenu />
    </header>
  );
}

/**
 * docs/product.md#screens-and-routes: the profile picture opens a menu on hover, and on a click or
 * a tap. It is a Radix menu: Enter, Space or ArrowDown on the button open it with the focus on its
 * first item, arrows move between items, Escape closes it and gives the focus back to the button.
 */
function ProfileMenu() {
  const user = useCurrentUser();
  const { signOut, isPending } = useSignOut();
  const [open, setOpen] = useState(false);
  const closeTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // A mouse opens the menu on hover just before its press lands: that press must not close it again.
  const openedByHover = useRef(false);

  const show = () => {
    clearTimeout(closeTimer.current);
    if (open) return;
    openedByHover.current = true;
    setOpen(true);
  };
  const hideSoon = () => {
    clearTimeout(closeTimer.current);
    closeTimer.current = setTimeout(() => setOpen(false), 150);
  };
  useEffect(() => () => clearTimeout(closeTimer.current), []);
  // Only a mouse hovers; a finger's tap opens the menu by its press.
  const hover = {
    onPointerEnter: (e: PointerEvent) => e.pointerType === 'mouse' && show(),
    onPointerLeave: (e: PointerEvent) => e.pointerType === 'mouse' && hideSoon(),
  };

  return (
    <DropdownMenu
      modal={false}
      open={open}
      onOpenChange={(next) => {
        openedByHover.current = false;
        setOpen(next);
      }}
    >
      {/* The button is named by what it shows (WCAG 2.5.3, label in name): the user's name and role,
          kept for screen readers where a phone hides them, then what it opens. */}
      <DropdownMenuTrigger
        {...hover}
        onPointerDown={(e) => {
          if (!openedByHover.current) return;
          openedByHover.current = false;
          e.preventDefault();
        }}
        className="flex items-center gap-3 rounded-full outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
      >
        <span className="sr-only text-right leading-tight sm:not-sr-only">
          <span className="block text-sm font-medium">{user.fullName || user.username}</span>
          <span className="block text-xs text-muted-foreground">{ROLE_LABELS[user.role] ?? user.role}</span>
        </span>
        <span className="sr-only">, profile menu</span>
        <UserAvatar user={user} alt="" />
      </DropdownMenuTrigger>
      <DropdownMenuContent {...hover} align="end" aria-label="Profile" aria-labelledby={undefined} className="w-56">
        <div className="px-2 py-1.5">
          <p className="truncate text-sm font-medium">{user.fullName || user.username}</p>
          <p className="truncate text-xs text-muted-foreground">{user.email}</p>
        </div>
        <DropdownMenuSeparator />
        <DropdownMenuItem asChild>
          <Link to="/users/profile">
            <UserIcon /> My Profile
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem variant="destructive" disabled={isPending} onSelect={() => void signOut()}>
          <LogOutIcon /> Logout
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
