import { useQuery } from '@tanstack/react-query';
import { LandmarkIcon, MapPinIcon } from 'lucide-react';
import { ScreenTitle } from '../components/layout';
import { Loaded } from '../components/states';
import { Card } from '../components/ui';
import { usePortalText } from '../i18n';
import { trpc } from '../trpc';

/** How to pay: nothing is paid online yet, so the bank details and the branches to pay at. */
export function HowToPayScreen() {
  const { t } = usePortalText();
  const info = useQuery(trpc.portal.howToPay.queryOptions(undefined, { staleTime: 5 * 60_000 }));
  // Settings → Organisation's bank details; an organisation that wrote them in the receipt footer
  // before there was a field for them still shows them.
  const org = info.data?.organisation;
  const bank = (org?.bankDetails.trim() || org?.paymentDetails.trim()) ?? '';
  return (
    <>
      <ScreenTitle>{t('howToPay.title')}</ScreenTitle>
      <p className="mb-4 text-sm">{t('howToPay.intro')}</p>
      <Loaded query={info}>
        {(data) => (
          <div className="grid gap-4">
            <Card aria-labelledby="bank-title">
              <h2 id="bank-title" className="mb-2 flex items-center gap-2 text-base font-semibold">
                <LandmarkIcon aria-hidden="true" className="size-5 text-primary" />
                {t('howToPay.bank')}
              </h2>
              {bank ? (
                <p className="text-sm break-words whitespace-pre-line" data-testid="portal-bank-details">
                  {bank}
                </p>
              ) : (
                <p className="text-sm text-muted-foreground">{t('howToPay.noBank')}</p>
              )}
            </Card>
            <Card aria-labelledby="branches-title">
              <h2 id="branches-title" className="mb-2 flex items-center gap-2 text-base font-semibold">
                <MapPinIcon aria-hidden="true" className="size-5 text-primary" />
                {t('howToPay.branches')}
              </h2>
              {data.branches.length === 0 ? (
                <p className="text-sm text-muted-foreground">{t('howToPay.noBranches')}</p>
              ) : (
                <ul className="grid gap-2 text-sm">
                  {data.branches.map((b) => (
                    <li key={b._id} className="rounded-md bg-muted px-3 py-2">
                      <p className="font-medium">{b.name}</p>
                      {b.location && (
                        <p className="break-words whitespace-pre-line text-muted-foreground">{b.location}</p>
                      )}
                      {b.phone && (
                        <a
                          className="inline-flex min-h-11 items-center text-primary underline-offset-4 hover:underline"
                          href={`tel:${b.phone.replace(/[^\d+]/g, '')}`}
                        >
                          {t('howToPay.phone', { phone: b.phone })}
                        </a>
                      )}
                    </li>
                  ))}
                </ul>
              )}
            </Card>
            {(data.organisation.phone || data.organisation.email) && (
              <Card aria-labelledby="contact-title">
                <h2 id="contact-title" className="mb-2 text-base font-semibold">
                  {t('howToPay.contact')}
                </h2>
                <div className="grid gap-1 text-sm">
                  <p className="font-medium">{data.organisation.name}</p>
                  {data.organisation.address && (
                    <p className="break-words whitespace-pre-line">{data.organisation.address}</p>
                  )}
                  {data.organisation.phone && (
                    <p>
                      <a
                        className="inline-flex min-h-11 items-center text-primary underline-offset-4 hover:underline"
                        href={`tel:${data.organisation.phone.replace(/[^\d+]/g, '')}`}
                      >
                        {t('howToPay.phone', { phone: data.organisation.phone })}
                      </a>
                    </p>
                  )}
                  {data.organisation.email && (
                    <p>
                      <a
                        className="inline-flex min-h-11 items-center break-all text-primary underline-offset-4 hover:underline"
                        href={`mailto:${data.organisation.email}`}
                      >
                        {t('howToPay.email', { email: data.organisation.email })}
                      </a>
                    </p>
                  )}
                </div>
              </Card>
            )}
          </div>
        )}
      </Loaded>
    </>
  );
}
