import { RowEditActions } from '@/components/row-actions';
import { listPage, type TableHook } from '@/components/list-page';
import { useIsAdmin } from '@/lib/auth';
import { useCurrencies } from '@/lib/format';
import { useEditableRows } from '@/lib/use-editable-rows';
import { trpc } from '@/lib/trpc';
import { currencySymbol, formatMoney } from '@shared/format';
import { treatmentList } from './treatment-queries';
import { formatDuration, formatTiming, readDraft, toDraft } from './treatment-row';

const useTreatmentsTable: TableHook<typeof treatmentList> = () => {
  const admin = useIsAdmin();
  const currencies = useCurrencies();
  const rows = useEditableRows({
    noun: 'Treatment',
    name: (t) => t.treatmentName,
    toDraft,
    toInput: readDraft,
    procedures: trpc.treatments,
  });

  const box = { type: 'number', className: 'h-8 min-w-16' } as const;
  const price = { ...box, step: '0.01', min: '0' };
  const whole = { ...box, step: '1', min: '1' };
  const part = (placeholder: string) => ({ ...box, min: '0', step: '1', placeholder });

  return {
    columns: [
      {
        header: 'Treatment Name',
        wrap: true,
        sort: 'treatmentName',
        className: 'font-medium',
        cell: (t) =>
          rows.input(t, 'treatmentName', 'Treatment Name', { ...box, type: 'text', autoFocus: true }) ??
          t.treatmentName,
      },
      {
        header: `Local Price (${currencies.localCurrency})`,
        sort: 'localPrice',
        // Two-line headers leave the width to the name and timing (the table fits 1360 px).
        headClassName: 'text-right whitespace-normal',
        className: 'text-right tabular-nums',
        cell: (t) =>
          rows.input(t, 'localPrice', 'Local Price', price) ?? formatMoney(t.localPrice, currencies.localCurrency),
      },
      {
        header: `Foreign Price (${currencySymbol(currencies.foreignCurrency)})`,
        sort: 'foreignPrice',
        headClassName: 'text-right whitespace-normal',
        className: 'text-right tabular-nums',
        cell: (t) =>
          rows.input(t, 'foreignPrice', 'Foreign Price', price) ??
          formatMoney(t.foreignPrice, currencies.foreignCurrency),
      },
      {
        header: 'Max Sessions',
        sort: 'maxSessions',
        headClassName: 'text-right whitespace-normal',
        className: 'text-right',
        cell: (t) => rows.input(t, 'maxSessions', 'Max Sessions', whole) ?? t.maxSessions,
      },
      {
        header: 'Installments',
        headClassName: 'text-right',
        className: 'text-right',
        cell: (t) => rows.input(t, 'installments', 'Installments', whole) ?? t.installments,
      },
      {
        header: 'Duration',
        className: 'whitespace-normal',
        cell: (t) =>
          rows.editing(t) ? (
            <div className="flex gap-1">
              {rows.input(t, 'weeks', 'Duration Weeks', part('W'))}
              {rows.input(t, 'days', 'Duration Days', part('D'))}
              {rows.input(t, 'months', 'Duration Months', part('M'))}
            </div>
          ) : (
            formatDuration(t.duration)
          ),
      },
      {
        header: 'Timing',
        className: 'whitespace-normal',
        cell: (t) =>
          rows.editing(t) ? (
            <div className="flex min-w-48 flex-wrap items-center gap-1">
              {rows.input(t, 'sessionMinutes', 'Session length (minutes)', { ...box, min: '5', max: '720', step: '1' })}
              {rows.input(t, 'bufferMinutes', 'Buffer after a session (minutes)', {
                ...box,
                min: '0',
                max: '240',
                step: '1',
              })}
              <label className="flex items-center gap-1 text-xs">
                <input
                  type="checkbox"
                  className="size-4 accent-primary"
                  checked={rows.draft?.requiresRoom ?? false}
                  onChange={(e) => {
                    const requiresRoom = e.target.checked;
                    rows.setDraft((d) => (d ? { ...d, requiresRoom } : d));
                  }}
                />
                Requires a room
              </label>
            </div>
          ) : (
            formatTiming(t)
          ),
      },
      {
        header: 'Actions',
        headClassName: 'text-right',
        className: 'text-right',
        cell: (t) => <RowEditActions rows={rows} row={t} size="icon" canEdit={admin} canDelete={admin} />,
      },
    ],
    dialog: rows.deleteConfirm('Its bookings are kept.'),
  };
};

/** docs/product.md#screens-and-routes, All Treatments. */
export const TreatmentsPage = listPage(treatmentList, useTreatmentsTable);
