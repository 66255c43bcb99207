import type { ReactNode } from 'react';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';

/** A card with a title (and optional actions on its right, wrapping under it on a phone) over its content. */
export function TitledCard({
  title,
  actions,
  className,
  contentClassName,
  testId,
  children,
}: {
  title: ReactNode;
  actions?: ReactNode;
  className?: string;
  contentClassName?: string;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <Card className={className} data-testid={testId}>
      <CardHeader className={actions ? 'flex flex-row flex-wrap items-center justify-between gap-2' : undefined}>
        <CardTitle>{title}</CardTitle>
        {actions}
      </CardHeader>
      <CardContent className={contentClassName}>{children}</CardContent>
    </Card>
  );
}
