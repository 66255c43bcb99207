import { useRouter, useRouterState } from '@tanstack/react-router';
import type { ComponentProps, MouseEvent } from 'react';

/**
 * A link inside the portal: a real <a href> (open in a new tab, copy the address) that the
 * router follows without reloading the page on a plain click.
 */
export function NavLink({
  href,
  exact = false,
  className = '',
  activeClassName = '',
  onClick,
  ...props
}: ComponentProps<'a'> & { href: string; exact?: boolean; activeClassName?: string }) {
  const router = useRouter();
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const active = exact ? pathname.replace(/\/$/, '') === href.replace(/\/$/, '') : pathname.startsWith(href);
  const follow = (e: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(e);
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    void router.navigate({ href });
  };
  return (
    <a
      href={href}
      onClick={follow}
      aria-current={active ? 'page' : undefined}
      className={`${className} ${active ? activeClassName : ''}`}
      {...props}
    />
  );
}
