import type { UseQueryResult } from '@tanstack/react-query';
import { useRouter } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { usePortalText } from '../i18n';
import { Button, buttonClass, Spinner } from './ui';

export function PendingScreen() {
  const { t } = usePortalText();
  return (
    <div role="status" className="flex items-center justify-center gap-2 p-10 text-sm text-muted-foreground">
      <Spinner />
      {t('app.loading')}
    </div>
  );
}

/** A load that failed: the page says so in the person's language and offers another try. */
export function LoadFailed({ onRetry }: { onRetry: () => void }) {
  const { t } = usePortalText();
  return (
    <div role="alert" className="grid justify-items-start gap-3 rounded-lg border bg-card p-4 text-sm">
      <p>{t('app.loadFailed')}</p>
      <Button kind="outline" onClick={onRetry}>
        {t('app.retry')}
      </Button>
    </div>
  );
}

/** What a screen's query loads: the spinner while it loads, the failure with another try, then `children` with the data. */
export function Loaded<T>({
  query,
  children,
}: {
  query: UseQueryResult<T, unknown>;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <PendingScreen />;
  if (query.isError) return <LoadFailed onRetry={() => void query.refetch()} />;
  return children(query.data);
}

export function ErrorScreen() {
  const router = useRouter();
  return (
    <main className="mx-auto max-w-md p-6">
      <LoadFailed onRetry={() => void router.invalidate()} />
    </main>
  );
}

export function NotFoundScreen() {
  const { t } = usePortalText();
  return (
    <main className="mx-auto grid max-w-md justify-items-start gap-4 p-6">
      <h1 className="text-xl font-semibold">{t('app.notFound')}</h1>
      <a href="/portal" className={buttonClass('outline')}>
        {t('app.goHome')}
      </a>
    </main>
  );
}
