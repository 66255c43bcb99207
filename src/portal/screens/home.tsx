import { useQuery } from '@tanstack/react-query';
import { AlertTriangleIcon, CalendarClockIcon, GraduationCapIcon, WalletIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { ScreenTitle } from '../components/layout';
import { NavLink } from '../components/nav-link';
import { LoadFailed, PendingScreen } from '../components/states';
import { buttonClass, Card } from '../components/ui';
import { usePortalText } from '../i18n';
import { usePerson } from '../session';
import { trpc } from '../trpc';

/** Home: what comes next and what is owed, each said in a sentence. */
export function HomeScreen() {
  const { t, f } = usePortalText();
  const me = usePerson();
  const home = useQuery(trpc.portal.home.queryOptions());

  const firstName = me.fullName.split(/\s+/)[0] || me.fullName;
  return (
    <>
      <ScreenTitle>{t('home.greeting', { name: firstName })}</ScreenTitle>
      {home.isPending ? (
        <PendingScreen />
      ) : home.isError ? (
        <LoadFailed onRetry={() => void home.refetch()} />
      ) : (
        <div className="grid gap-3 sm:grid-cols-2">
          <Tile icon={<CalendarClockIcon />} title={t('home.nextAppointment')}>
            {home.data.nextAppointment ? (
              <>
                <p className="font-medium">{f.dateTime(home.data.nextAppointment.start)}</p>
                <p>
                  {t('home.appointmentWith', {
                    treatment: home.data.nextAppointment.treatmentName,
                    practitioner: home.data.nextAppointment.practitioner.fullName,
                  })}
                </p>
                <p className="text-muted-foreground">
                  {t('home.atBranch', { branch: home.data.nextAppointment.branch.name })}
                  {home.data.nextAppointment.room &&
                    ` · ${t('home.inRoom', { room: home.data.nextAppointment.room.name })}`}
                </p>
                <TileLink href="/portal/treatments">{t('home.seeTreatments')}</TileLink>
              </>
            ) : (
              <p>{t('home.noAppointment')}</p>
            )}
          </Tile>
          <Tile icon={<GraduationCapIcon />} title={t('home.nextClass')}>
            {home.data.nextClass ? (
              <>
                <p className="font-medium">{f.dateTime(home.data.nextClass.start)}</p>
                <p>
                  {home.data.nextClass.courseName} · {home.data.nextClass.batch.name}
                </p>
                {home.data.nextClass.room && (
                  <p className="text-muted-foreground">{t('home.inRoom', { room: home.data.nextClass.room.name })}</p>
                )}
                <TileLink href="/portal/courses">{t('home.seeCourses')}</TileLink>
              </>
            ) : (
              <p>{t('home.noClass')}</p>
            )}
          </Tile>
          <Tile icon={<WalletIcon />} title={t('home.nextDue')}>
            <p>
              {home.data.nextDue
                ? t('home.nextDueText', {
                    amount: f.money(home.data.nextDue.amount, home.data.nextDue.currency),
                    date: f.day(home.data.nextDue.dueDate),
                  })
                : // Nothing ahead yet something owed (overdue, or an unpaid fee without a date):
                  // never "nothing is due" beside an overdue amount.
                  home.data.outstanding.length > 0
                  ? t('home.noDueAhead')
                  : t('home.nothingDue')}
            </p>
            <h3 className="mt-2 font-medium">{t('home.outstanding')}</h3>
            {home.data.outstanding.length === 0 ? (
              <p>{t('home.nothingOutstanding')}</p>
            ) : (
              <ul className="grid gap-1">
                {home.data.outstanding.map((o) => (
                  <li key={o.currency}>{t('home.outstandingText', { amount: f.money(o.amount, o.currency) })}</li>
                ))}
              </ul>
            )}
            <TileLink href="/portal/how-to-pay">{t('home.howToPay')}</TileLink>
          </Tile>
          <Tile
            icon={<AlertTriangleIcon />}
            title={t('home.overdue')}
            tone={home.data.overdue.length > 0 ? 'bad' : 'neutral'}
          >
            {home.data.overdue.length === 0 ? (
              <p>{t('home.nothingOverdue')}</p>
            ) : (
              <ul className="grid gap-1">
                {home.data.overdue.map((o) => (
                  <li key={o.currency} className="font-medium text-destructive">
                    {t('home.overdueText', { amount: f.money(o.amount, o.currency), date: f.day(o.since) })}
                  </li>
                ))}
              </ul>
            )}
          </Tile>
        </div>
      )}
    </>
  );
}

function Tile({
  icon,
  title,
  tone = 'neutral',
  children,
}: {
  icon: ReactNode;
  title: string;
  tone?: 'neutral' | 'bad';
  children: ReactNode;
}) {
  return (
    <Card className={tone === 'bad' ? 'border-destructive/40' : ''}>
      <div className="mb-2 flex items-center gap-2">
        <span
          aria-hidden="true"
          className={`flex size-8 items-center justify-center rounded-md [&_svg]:size-4 ${
            tone === 'bad' ? 'bg-destructive/10 text-destructive' : 'bg-primary/10 text-primary'
          }`}
        >
          {icon}
        </span>
        <h2 className="text-base font-semibold">{title}</h2>
      </div>
      <div className="grid gap-1 text-sm">{children}</div>
    </Card>
  );
}

function TileLink({ href, children }: { href: string; children: string }) {
  return (
    <NavLink href={href} className={buttonClass('outline', 'mt-2 justify-self-start')}>
      {children}
    </NavLink>
  );
}
