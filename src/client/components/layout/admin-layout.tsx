import { Outlet } from '@tanstack/react-router';
import { Header } from './header';
import { Sidebar } from './sidebar';
import { useSidebarState } from './use-sidebar-state';

/** The protected area's frame: fixed sidebar (240/70px), 60px header, content to the right. */
export function AdminLayout() {
  const { narrow, collapsed, toggle, close } = useSidebarState();
  const offset = narrow ? '0px' : collapsed ? 'var(--sidebar-width-collapsed)' : 'var(--sidebar-width)';
  return (
    <div className="min-h-svh bg-background">
      <Sidebar collapsed={collapsed} narrow={narrow} onNavigate={narrow ? close : () => {}} />
      {narrow && !collapsed && (
        // docs/product.md#screens-and-routes: below 768px an outside click closes the sidebar.
        <div
          data-testid="sidebar-backdrop"
          aria-hidden
          className="fixed inset-0 z-35 animate-fade-in bg-black/30"
          onClick={close}
        />
      )}
      <Header collapsed={collapsed} narrow={narrow} onToggle={toggle} />
      <main
        data-testid="main"
        style={{ marginLeft: offset }}
        className="flex min-h-svh flex-col pt-[var(--header-height)] transition-[margin-left] duration-200 ease-out"
      >
        <div className="flex flex-1 flex-col p-4 md:p-6">
          <Outlet />
        </div>
      </main>
    </div>
  );
}
