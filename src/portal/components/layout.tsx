import { Outlet } from '@tanstack/react-router';
import { BookOpenIcon, HeartPulseIcon, HomeIcon, LogOutIcon, ReceiptIcon, UserIcon } from 'lucide-react';
import { usePortalText } from '../i18n';
import { usePerson, useSignOut } from '../session';
import { LanguageSwitch } from './language-switch';
import { NavLink } from './nav-link';
import { Spinner } from './ui';

const SECTIONS = [
  { href: '/portal', key: 'nav.home', Icon: HomeIcon, exact: true },
  { href: '/portal/courses', key: 'nav.courses', Icon: BookOpenIcon },
  { href: '/portal/treatments', key: 'nav.treatments', Icon: HeartPulseIcon },
  { href: '/portal/payments', key: 'nav.payments', Icon: ReceiptIcon },
  { href: '/portal/profile', key: 'nav.profile', Icon: UserIcon },
] as const;

/**
 * The frame of every signed-in screen. On a phone the sections are a bar at the bottom, in reach
 * of a thumb; from 768 px they sit in the header. The language switch and sign-out are always in
 * the header.
 */
export function PortalLayout() {
  const { t } = usePortalText();
  const me = usePerson();
  const { signOut, isPending } = useSignOut();

  const links = (variant: 'bar' | 'header') =>
    SECTIONS.map(({ href, key, Icon, ...rest }) => (
      <li key={href} className={variant === 'bar' ? 'min-w-0 flex-1' : undefined}>
        <NavLink
          href={href}
          exact={'exact' in rest}
          className={
            variant === 'bar'
              ? 'flex min-h-14 flex-col items-center justify-center gap-0.5 rounded-md px-0.5 text-center text-[0.6875rem] leading-tight break-words text-muted-foreground outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50'
              : 'flex min-h-11 items-center gap-2 rounded-md px-3 text-sm text-muted-foreground outline-none hover:bg-accent focus-visible:ring-[3px] focus-visible:ring-ring/50'
          }
          activeClassName="font-semibold text-primary"
        >
          <Icon aria-hidden="true" className={variant === 'bar' ? 'size-5' : 'size-4'} />
          <span className="max-w-full">{t(key)}</span>
        </NavLink>
      </li>
    ));

  return (
    <div className="min-h-svh pb-20 md:pb-0">
      <a
        href="#content"
        className="sr-only z-50 rounded-md bg-card focus:not-sr-only focus:px-3 focus:fixed focus:top-2 focus:left-2 focus:inline-flex focus:min-h-11 focus:items-center"
      >
        {t('app.skipToContent')}
      </a>
      <header className="sticky top-0 z-30 border-b bg-card/95 backdrop-blur">
        <div className="mx-auto flex max-w-5xl items-center gap-2 px-3 py-2 sm:px-4">
          <div className="min-w-0 flex-1">
            <p className="truncate text-base font-semibold">{t('app.title')}</p>
            {/* The whole name, wrapping between its words: an ellipsis would hide a long one. */}
            <p className="text-xs break-words text-muted-foreground">{me.fullName}</p>
          </div>
          <nav aria-label={t('nav.label')} className="hidden md:block">
            <ul className="flex items-center gap-1">{links('header')}</ul>
          </nav>
          <LanguageSwitch signedIn />
          <button
            type="button"
            onClick={() => void signOut()}
            disabled={isPending}
            aria-label={t('app.signOut')}
            title={t('app.signOut')}
            className="inline-flex size-11 shrink-0 items-center justify-center rounded-md text-muted-foreground outline-none hover:bg-accent focus-visible:ring-[3px] focus-visible:ring-ring/50 lg:w-auto lg:gap-2 lg:px-3"
          >
            {isPending ? <Spinner /> : <LogOutIcon aria-hidden="true" className="size-5" />}
            <span className="hidden text-sm lg:inline">{t('app.signOut')}</span>
          </button>
        </div>
      </header>
      <main id="content" tabIndex={-1} className="mx-auto max-w-3xl px-3 py-4 outline-none sm:px-4 sm:py-6">
        <Outlet />
      </main>
      <nav
        aria-label={t('nav.label')}
        className="fixed inset-x-0 bottom-0 z-30 border-t bg-card pb-[env(safe-area-inset-bottom)] md:hidden"
      >
        <ul className="flex items-stretch gap-0.5 px-1 py-1">{links('bar')}</ul>
      </nav>
    </div>
  );
}

/** A screen's heading, the first thing a screen reader and a keyboard reach inside the content. */
export function ScreenTitle({ children }: { children: string }) {
  return <h1 className="mb-4 text-xl font-semibold sm:text-2xl">{children}</h1>;
}
