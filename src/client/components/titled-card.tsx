import type { ReactNode } from 'react';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';

/** A card with a title (and optional actions on its right) over its content. */
export function TitledCard({
  title,
  actions,
  contentClassName,
  children,
}: {
  title: ReactNode;
  actions?: ReactNode;
  contentClassName?: string;
  children: ReactNode;
}) {
  return (
    <Card>
      <CardHeader className={actions ? 'flex flex-row items-center justify-between' : undefined}>
        <CardTitle>{title}</CardTitle>
        {actions}
      </CardHeader>
      <CardContent className={contentClassName}>{children}</CardContent>
    </Card>
  );
}
