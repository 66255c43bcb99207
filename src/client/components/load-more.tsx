import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';

/** The part of an infinite query (TanStack Query's useInfiniteQuery) that the button reads. */
export interface NextPages {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => Promise<unknown>;
}

/** Fetches a list's next page while there is one; disabled, with a spinner, while it loads. */
export function LoadMoreButton({
  list,
  className,
  children = 'Load more',
}: {
  list: NextPages;
  className?: string;
  children?: ReactNode;
}) {
  if (!list.hasNextPage) return null;
  return (
    <Button
      variant="outline"
      className={className}
      onClick={() => void list.fetchNextPage()}
      disabled={list.isFetchingNextPage}
    >
      {list.isFetchingNextPage && <Spinner />} {children}
    </Button>
  );
}

/** Under a long list: how much of it is shown ("Showing 20 entries, newest first") and Load more. */
export function LoadMoreFooter({ list, children }: { list: NextPages; children: ReactNode }) {
  return (
    <div className="mt-3 flex flex-wrap items-center justify-between gap-3 text-sm text-muted-foreground">
      <span>{children}</span>
      <LoadMoreButton list={list} />
    </div>
  );
}
