import { Link, useLocation } from '@tanstack/react-router';
import { ChevronDownIcon, GraduationCapIcon } from 'lucide-react';
import { useState } from 'react';
import { useIsAdmin } from '@/lib/auth';
import { cn } from '@/lib/utils';
import { ADMIN_MANAGEMENT_NAV, ADMIN_MANAGEMENT_TITLE, FOOTER_NAV, PRIMARY_NAV, type NavGroupItem } from './nav-items';

const itemClass =
  'flex h-10 items-center gap-3 rounded-md px-3 text-sm font-medium text-sidebar-foreground transition-colors hover:bg-sidebar-accent hover:text-sidebar-accent-foreground';
const activeClass = 'bg-sidebar-accent text-sidebar-accent-foreground';

interface SidebarProps {
  collapsed: boolean;
  narrow: boolean;
  onNavigate: () => void;
}

export function Sidebar({ collapsed, narrow, onNavigate }: SidebarProps) {
  const admin = useIsAdmin();
  const visible = (items: NavGroupItem[]) => items.filter((i) => admin || !i.adminOnly);
  // Below 768px the sidebar is full width when shown; "collapsed" there means off-canvas.
  const iconOnly = collapsed && !narrow;
  const width = narrow || !collapsed ? 'var(--sidebar-width)' : 'var(--sidebar-width-collapsed)';
  // One list of links: the primary ones, the management group's, and the footer's.
  const navList = (items: NavGroupItem[], className = 'space-y-1') => (
    <ul className={className}>
      {visible(items).map((item) => (
        <li key={item.to}>
          <NavItem item={item} iconOnly={iconOnly} admin={admin} onNavigate={onNavigate} />
        </li>
      ))}
    </ul>
  );

  return (
    <aside
      id="app-sidebar"
      data-testid="sidebar"
      data-collapsed={collapsed}
      data-narrow={narrow}
      aria-label="Sidebar"
      aria-hidden={narrow && collapsed ? true : undefined}
      inert={narrow && collapsed ? true : undefined}
      style={{ width, transform: narrow && collapsed ? 'translateX(-100%)' : 'translateX(0)' }}
      className="fixed inset-y-0 left-0 z-40 flex flex-col overflow-hidden border-r border-sidebar-border bg-sidebar transition-[width,transform] duration-200 ease-out"
    >
      {/* docs/product.md#screens-and-routes: the brand text is not shown; the mark alone keeps the header row aligned. */}
      <div
        className={cn(
          'flex h-[var(--header-height)] shrink-0 items-center border-b border-sidebar-border',
          iconOnly ? 'justify-center' : 'px-5',
        )}
      >
        <span
          className="flex size-9 items-center justify-center rounded-lg bg-primary text-primary-foreground"
          aria-hidden
        >
          <GraduationCapIcon className="size-5" />
        </span>
      </div>
      <nav aria-label="Main" className="flex-1 overflow-x-hidden overflow-y-auto px-3 py-4">
        {navList(PRIMARY_NAV)}
        <div className="mt-6">
          {iconOnly ? (
            <div className="mx-2 mb-2 border-t border-sidebar-border" />
          ) : (
            <p className="mb-2 px-3 text-xs font-semibold tracking-wide text-muted-foreground uppercase">
              {ADMIN_MANAGEMENT_TITLE}
            </p>
          )}
          {navList(ADMIN_MANAGEMENT_NAV)}
        </div>
        {visible(FOOTER_NAV).length > 0 && navList(FOOTER_NAV, 'mt-6 space-y-1 border-t border-sidebar-border pt-4')}
      </nav>
    </aside>
  );
}

function NavItem({
  item,
  iconOnly,
  admin,
  onNavigate,
}: {
  item: NavGroupItem;
  iconOnly: boolean;
  admin: boolean;
  onNavigate: () => void;
}) {
  const pathname = useLocation({ select: (l) => l.pathname });
  const children = (item.children ?? []).filter((c) => (admin ? !c.managerOnly : !c.adminOnly));
  const inGroup = item.to !== '/' && (pathname === item.to || pathname.startsWith(`${item.to}/`));
  const [expanded, setExpanded] = useState(inGroup);
  const hasMenu = children.length > 0;
  const Icon = item.icon;

  return (
    <>
      <Link
        to={item.to}
        title={iconOnly ? item.label : undefined}
        aria-label={iconOnly ? item.label : undefined}
        aria-expanded={hasMenu && !iconOnly ? expanded : undefined}
        activeOptions={{ exact: item.to === '/' }}
        activeProps={{ className: activeClass, 'aria-current': 'page' }}
        className={cn(itemClass, iconOnly && 'justify-center px-0')}
        onClick={() => {
          // docs/product.md#screens-and-routes: the sub-menu expands on click, and only when the sidebar is not collapsed.
          if (hasMenu && !iconOnly) setExpanded((e) => !e);
          if (!hasMenu) onNavigate();
        }}
      >
        <Icon className="size-5 shrink-0" />
        {!iconOnly && <span className="flex-1 truncate">{item.label}</span>}
        {!iconOnly && hasMenu && (
          <ChevronDownIcon className={cn('size-4 shrink-0 transition-transform', expanded && 'rotate-180')} />
        )}
      </Link>
      {hasMenu && !iconOnly && expanded && (
        <ul
          className="mt-1 mb-2 ml-5 space-y-0.5 border-l border-sidebar-border pl-3"
          aria-label={`${item.label} menu`}
        >
          {children.map((child) => (
            <li key={child.label}>
              <Link
                to={child.to}
                activeOptions={{ exact: true }}
                activeProps={{
                  className: 'text-sidebar-accent-foreground font-medium bg-sidebar-accent',
                  'aria-current': 'page',
                }}
                className="block rounded-md px-3 py-1.5 text-sm text-muted-foreground transition-colors hover:bg-sidebar-accent hover:text-sidebar-accent-foreground"
                onClick={onNavigate}
              >
                {child.label}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
