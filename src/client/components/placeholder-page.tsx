import { PageHeader } from '@/components/page-header';
import { Card, CardContent } from '@/components/ui/card';

/** Screens the contract lists with a title only (analytics, manager, student, inventory). */
export function PlaceholderPage({ title, note }: { title: string; note?: string }) {
  return (
    <div>
      <PageHeader title={title} />
      <Card>
        <CardContent className="py-10 text-center text-sm text-muted-foreground">
          {note ?? 'Nothing here yet.'}
        </CardContent>
      </Card>
    </div>
  );
}
