import { useQuery } from '@tanstack/react-query';
import { AlertTriangleIcon, CalendarClockIcon, GraduationCapIcon, WalletIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { ScreenTitle } from '../components/layout';
import { NavLink } from '../components/nav-link';
import { Loaded } from '../components/states';
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
      <Loaded query={home}>
        {(data) => (
          <div className="grid gap-3 sm:grid-cols-2">
            <Tile icon={<CalendarClockIcon />} title={t('home.nextAppointment')}>
              {data.nextAppointment ? (
                <>
                  <p className="font-medium">{f.dateTime(data.nextAppointment.start)}</p>
                  <p>
                    {t('home.appointmentWith', {
                      treatment: data.nextAppointment.treatmentName,
                      practitioner: data.nextAppointment.practitioner.fullName,
                    })}
                  </p>
                  <p className="text-muted-foreground">
                    {t('home.atBranch', { branch: data.nextAppointment.branch.name })}
                    {data.nextAppointment.room && ` · ${t('home.inRoom', { room: data.nextAppointment.room.name })}`}
                  </p>
                  <TileLink href="/portal/treatments">{t('home.seeTreatments')}</TileLink>
                </>
              ) : (
                <p>{t('home.noAppointment')}</p>
              )}
            </Tile>
            <Tile icon={<GraduationCapIcon />} title={t('home.nextClass')}>
              {data.nextClass ? (
                <>
                  <p className="font-medium">{f.dateTime(data.nextClass.start)}</p>
                  <p>
                    {data.nextClass.courseName} · {data.nextClass.batch.name}
                  </p>
                  {data.nextClass.room && (
                    <p className="text-muted-foreground">{t('home.inRoom', { room: data.nextClass.room.name })}</p>
                  )}
                  <TileLink href="/portal/courses">{t('home.seeCourses')}</TileLink>
                </>
              ) : (
                <p>{t('home.noClass')}</p>
              )}
            </Tile>
            <Tile icon={<WalletIcon />} title={t('home.nextDue')}>
              <p>
                {data.nextDue
                  ? t('home.nextDueText', {
                      amount: f.money(data.nextDue.amount, data.nextDue.currency),
                      date: f.day(data.nextDue.dueDate),
                    })
                  : // Nothing ahead yet something owed (overdue, or an unpaid fee without a date):
                    // never "nothing is due" beside an overdue amount.
                    data.outstanding.length > 0
                    ? t('home.noDueAhead')
                    : t('home.nothingDue')}
              </p>
              <h3 className="mt-2 font-medium">{t('home.outstanding')}</h3>
              {data.outstanding.length === 0 ? (
                <p>{t('home.nothingOutstanding')}</p>
              ) : (
                <ul className="grid gap-1">
                  {data.outstanding.map((o) => (
                    <li key={o.currency}>{t('home.outstandingText', { amount: f.money(o.amount, o.currency) })}</li>
                  ))}
                </ul>
              )}
              <TileLink href="/portal/how-to-pay">{t('home.howToPay')}</TileLink>
            </Tile>
            <Tile
              icon={<AlertTriangleIcon />}
              title={t('home.overdue')}
              tone={data.overdue.length > 0 ? 'bad' : 'neutral'}
            >
              {data.overdue.length === 0 ? (
                <p>{t('home.nothingOverdue')}</p>
              ) : (
                <ul className="grid gap-1">
                  {data.overdue.map((o) => (
                    <li key={o.currency} className="font-medium text-destructive">
                      {t('home.overdueText', { amount: f.money(o.amount, o.currency), date: f.day(o.since) })}
                    </li>
                  ))}
                </ul>
              )}
            </Tile>
          </div>
        )}
      </Loaded>
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
