import { useQuery } from '@tanstack/react-query';
import { trpc } from '@/lib/trpc';

/** Until the settings arrive (or for a role that may not read them): the defaults of docs/money.md. */
const DEFAULT_CURRENCIES = { localCurrency: 'LKR', foreignCurrency: 'USD' };

/**
 * The local and foreign currency codes of the settings, for amounts that do not carry their own
 * (treatment prices, report statistics). Formatting itself is `@shared/format`, as on the server.
 */
export function useCurrencies(): { localCurrency: string; foreignCurrency: string; exchangeRate?: number } {
  const settings = useQuery(trpc.settings.getCurrency.queryOptions(undefined, { staleTime: 60_000 }));
  return settings.data ?? DEFAULT_CURRENCIES;
}
