import { useQuery } from '@tanstack/react-query';
import { InstallmentList } from '../components/installments';
import { ProgressBar, RecordHeading, RecordsScreen } from '../components/records';
import { Card, Detail, type Tone } from '../components/ui';
import { usePortalText } from '../i18n';
import { trpc, type RouterOutputs } from '../trpc';
import { WEEKDAY_INDEX } from './weekdays';

type Enrollment = RouterOutputs['portal']['enrollments']['data'][number];

const STATUS_TONES: Record<string, Tone> = {
  'Pending Payment': 'warn',
  'Active (Partial)': 'info',
  'Active (Paid)': 'good',
  Completed: 'neutral',
  Active: 'info',
  Cancelled: 'bad',
};

/** My courses: each enrolment's status, money, installments, class timetable and attendance. */
export function CoursesScreen() {
  const { t } = usePortalText();
  const list = useQuery(trpc.portal.enrollments.queryOptions());
  return (
    <RecordsScreen title={t('courses.title')} none={t('courses.none')} list={list}>
      {(e) => <EnrollmentCard key={e._id} enrollment={e} />}
    </RecordsScreen>
  );
}

function EnrollmentCard({ enrollment: e }: { enrollment: Enrollment }) {
  const { t, f } = usePortalText();
  const statusKey = `courses.status.${e.status}` as 'courses.status.Active';
  const status = t(statusKey, { defaultValue: e.status });
  return (
    <Card aria-labelledby={`course-${e._id}`} data-testid="portal-enrollment">
      <RecordHeading
        id={`course-${e._id}`}
        title={e.courseName}
        since={t('courses.enrolledOn', { date: f.day(e.enrolledOn) })}
        status={status}
        tone={STATUS_TONES[e.status] ?? 'neutral'}
      />

      <dl className="mt-3 grid gap-2">
        <Detail label={t('courses.fee')}>{f.money(e.totalFee, e.currency)}</Detail>
        <Detail label={t('courses.paid')}>{f.money(e.paidAmount, e.currency)}</Detail>
        <Detail label={t('courses.outstanding')}>{f.money(e.outstandingAmount, e.currency)}</Detail>
        {e.admissionFee > 0 && (
          <Detail label={t('courses.admissionFee')}>
            {f.money(e.admissionFee, e.currency)} ·{' '}
            {e.admissionFeePaid ? t('courses.admissionPaid') : t('courses.admissionUnpaid')}
          </Detail>
        )}
      </dl>

      <h3 className="mt-4 mb-2 text-sm font-semibold">{t('courses.installments')}</h3>
      <InstallmentList installments={e.installments} currency={e.currency} emptyText={t('courses.noInstallments')} />

      <h3 className="mt-4 mb-2 text-sm font-semibold">{t('courses.batch')}</h3>
      {e.batch ? (
        <div className="grid gap-2 text-sm">
          <p className="font-medium">
            {e.batch.name}
            {e.batch.branch && <span className="font-normal text-muted-foreground"> · {e.batch.branch.name}</span>}
          </p>
          <p className="text-muted-foreground">
            {t('courses.batchDates', { from: f.day(e.batch.startDate), to: f.day(e.batch.endDate) })}
          </p>
          {e.batch.instructor && <p>{t('courses.instructor', { name: e.batch.instructor.fullName })}</p>}
          <h4 className="mt-1 font-medium">{t('courses.timetable')}</h4>
          {e.batch.timetable.length === 0 ? (
            <p className="text-muted-foreground">{t('courses.noTimetable')}</p>
          ) : (
            <ul className="grid gap-1">
              {e.batch.timetable.map((s) => (
                <li
                  key={`${s.weekday}-${s.start}`}
                  className="flex flex-wrap justify-between gap-x-3 rounded-md bg-muted px-3 py-2"
                >
                  <span className="font-medium">{f.weekday(WEEKDAY_INDEX[s.weekday])}</span>
                  <span>
                    {f.clock(s.start)}–{f.clock(s.end)}
                    {s.room && ` · ${s.room.name}`}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </div>
      ) : (
        <p className="text-sm text-muted-foreground">{t('courses.noBatch')}</p>
      )}

      <h3 className="mt-4 mb-2 text-sm font-semibold">{t('courses.attendance')}</h3>
      {e.attendanceRate === null || e.attendance.held === 0 ? (
        <p className="text-sm text-muted-foreground">{t('courses.noAttendance')}</p>
      ) : (
        <div className="grid gap-2 text-sm">
          <p className="font-medium">{t('courses.attendanceRate', { rate: f.percent(e.attendanceRate * 100) })}</p>
          <ProgressBar label={t('courses.attendance')} value={Math.round(e.attendanceRate * 100)} max={100} />
          <p className="text-muted-foreground">
            {t('courses.attendanceCounts', {
              present: f.number(e.attendance.present),
              late: f.number(e.attendance.late),
              absent: f.number(e.attendance.absent),
              excused: f.number(e.attendance.excused),
              held: f.number(e.attendance.held),
            })}
          </p>
        </div>
      )}
    </Card>
  );
}
