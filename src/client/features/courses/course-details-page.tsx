import { DetailsPage } from '@/components/details-page';
import { DetailList, DetailRow } from '@/components/detail-list';
import { Card, CardContent } from '@/components/ui/card';
import { trpc } from '@/lib/trpc';
import { formatDate, formatMoney } from '@shared/format';
import { RelatedEnrollments } from '@/features/enrollments/related-enrollments';

/** One course's details, and for admins its History (docs/audit.md#reading-it). */
export function CourseDetailsPage({ courseId }: { courseId: string }) {
  return (
    <DetailsPage entity="course" id={courseId} query={trpc.courses.get.queryOptions({ id: courseId })}>
      {(c) => (
        <>
          <Card className="max-w-4xl">
            <CardContent>
              <DetailList>
                <DetailRow label="Course name" className="font-medium">
                  {c.courseName}
                </DetailRow>
                <DetailRow label="Category">{c.category}</DetailRow>
                <DetailRow label="Duration">{c.duration}</DetailRow>
                <DetailRow label="Total fee">{formatMoney(c.totalFee, c.currency)}</DetailRow>
                <DetailRow label="Admission fee">{formatMoney(c.admissionFee, c.currency)}</DetailRow>
                <DetailRow label="Installments">{c.installments}</DetailRow>
                <DetailRow label="Description" className="whitespace-pre-line">
                  {c.description ?? '—'}
                </DetailRow>
                <DetailRow label="Created">{formatDate(c.createdAt)}</DetailRow>
              </DetailList>
            </CardContent>
          </Card>
          <RelatedEnrollments of={{ courseId: c._id }} />
        </>
      )}
    </DetailsPage>
  );
}
