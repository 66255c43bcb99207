import { useQuery } from '@tanstack/react-query';
import { DownloadIcon, FileTextIcon } from 'lucide-react';
import { ScreenTitle } from '../components/layout';
import { NavLink } from '../components/nav-link';
import { Loaded } from '../components/states';
import { Badge, buttonClass, Card } from '../components/ui';
import { usePortalText } from '../i18n';
import { trpc } from '../trpc';

const METHODS = new Set(['cash', 'card', 'bank_transfer', 'cheque', 'online', 'other']);

/** Payments: every receipt with its PDF (the one staff print), and the account statement. */
export function PaymentsScreen() {
  const { t, f } = usePortalText();
  const list = useQuery(trpc.portal.payments.queryOptions());
  return (
    <>
      <ScreenTitle>{t('payments.title')}</ScreenTitle>
      <Loaded query={list}>
        {(data) => (
          <div className="grid gap-4">
            <Card aria-labelledby="statement-title">
              <div className="flex items-start gap-3">
                <FileTextIcon aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-primary" />
                <div className="grid min-w-0 gap-2">
                  <h2 id="statement-title" className="text-base font-semibold">
                    {t('payments.statement')}
                  </h2>
                  <p className="text-sm text-muted-foreground">{t('payments.statementText')}</p>
                  <div className="flex flex-wrap gap-2">
                    <a href={data.statementUrl} download className={buttonClass('outline')}>
                      <DownloadIcon aria-hidden="true" />
                      {t('payments.downloadStatement')}
                    </a>
                    <NavLink href="/portal/how-to-pay" className={buttonClass('ghost')}>
                      {t('payments.howToPay')}
                    </NavLink>
                  </div>
                </div>
              </div>
            </Card>

            <section aria-labelledby="receipts-title" className="grid gap-2">
              <h2 id="receipts-title" className="text-base font-semibold">
                {t('payments.receipts')}
              </h2>
              {data.data.length === 0 ? (
                <Card>
                  <p className="text-sm">{t('payments.none')}</p>
                </Card>
              ) : (
                <ul className="grid gap-2">
                  {data.data.map((p) => (
                    <li key={p._id} className="rounded-lg border bg-card p-4 text-sm" data-testid="portal-payment">
                      <div className="flex flex-wrap items-start justify-between gap-2">
                        <div className="min-w-0">
                          <p className="font-medium">{t('payments.receipt', { number: p.receiptNumber })}</p>
                          <p className="break-words text-muted-foreground">
                            {t('payments.for', { subject: p.subject })}
                          </p>
                          <p className="text-muted-foreground">
                            {t('payments.receivedOn', { date: f.instantDay(p.receivedAt) })} ·{' '}
                            {METHODS.has(p.method) ? t(`payments.method.${p.method as 'cash'}`) : p.method}
                          </p>
                        </div>
                        <div className="grid justify-items-end gap-1 text-right">
                          <p className={`text-base font-semibold ${p.status === 'void' ? 'line-through' : ''}`}>
                            {f.money(p.amount, p.currency)}
                          </p>
                          {p.status === 'void' && <Badge tone="bad">{t('payments.voided')}</Badge>}
                          {p.refundedAmount > 0 && (
                            <Badge tone="warn">
                              {t('payments.refunded', { amount: f.money(p.refundedAmount, p.currency) })}
                            </Badge>
                          )}
                        </div>
                      </div>
                      <a
                        href={p.receiptUrl}
                        download
                        aria-label={`${t('payments.downloadShort')} ${p.receiptNumber}`}
                        className={buttonClass('outline', 'mt-3')}
                      >
                        <DownloadIcon aria-hidden="true" />
                        {t('payments.downloadShort')}
                      </a>
                    </li>
                  ))}
                </ul>
              )}
            </section>
          </div>
        )}
      </Loaded>
    </>
  );
}
