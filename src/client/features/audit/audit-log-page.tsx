import { useInfiniteQuery } from '@tanstack/react-query';
import { ChevronDownIcon, ChevronRightIcon, DownloadIcon } from 'lucide-react';
import { Fragment, useState } from 'react';
import { DateRangeFilter, FilterField, TitledSelectFilter } from '@/components/filter-field';
import { FilteredLog } from '@/components/filtered-log';
import { WRAP } from '@/components/data-list';
import { withWrapPoints } from '@/components/person-name';
import { TableStates } from '@/components/list-card';
import { PageHeader } from '@/components/page-header';
import { ADMIN_ROLES, RequireRole } from '@/components/require-role';
import { SearchInput } from '@/components/search-input';
import { SortableHead } from '@/components/sortable-head';
import { Button } from '@/components/ui/button';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { useIsAdmin } from '@/lib/auth';
import { searchFilters } from '@/lib/list-search';
import { AUDIT_ACTION_LABELS, AUDIT_ENTITY_LABELS } from '@shared/audit';
import { ActionBadge, ActorName, AuditEntryDetails } from './audit-entry-details';
import { auditExportUrl, auditListOptions, formatAuditTime, type AuditSearch } from './audit-queries';
import { AuditRecordLink } from './audit-record-link';

/** docs/audit.md#reading-it: every recorded change, sign-in and download, newest first; admins only. */
export function AuditLogPage({
  search,
  onSearchChange,
}: {
  search: AuditSearch;
  onSearchChange: (next: AuditSearch) => void;
}) {
  const admin = useIsAdmin();
  return (
    <div>
      <PageHeader
        title="Audit log"
        description="Who changed what, when and from where. Entries are never edited or removed."
        actions={
          admin && (
            <Button variant="outline" asChild>
              <a href={auditExportUrl(search)} download>
                <DownloadIcon /> Export to Excel
              </a>
            </Button>
          )
        }
      />
      <RequireRole roles={ADMIN_ROLES}>
        <AuditLog search={search} onSearchChange={onSearchChange} />
      </RequireRole>
    </div>
  );
}

function AuditLog({ search, onSearchChange }: { search: AuditSearch; onSearchChange: (next: AuditSearch) => void }) {
  const list = useInfiniteQuery(auditListOptions(search));
  const [open, setOpen] = useState<Set<string>>(new Set());
  // The text boxes keep what is typed; a filter set from outside them (an actor's name clicked,
  // Clear filters) starts them afresh.
  const [boxes, setBoxes] = useState(0);
  const { set, filter, filtered } = searchFilters(search, onSearchChange, 'dir');
  const setFromOutside = (next: AuditSearch) => {
    setBoxes((n) => n + 1);
    onSearchChange(next);
  };
  const toggle = (id: string) =>
    setOpen((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const entries = list.data?.pages.flatMap((p) => p.items) ?? [];
  const dir = search.dir;

  return (
    <FilteredLog
      filtered={filtered}
      onClear={() => setFromOutside({ dir })}
      list={list}
      failed={list.isError ? { error: list.error, onRetry: () => void list.refetch() } : null}
      shown={
        <>
          Showing {entries.length} {entries.length === 1 ? 'entry' : 'entries'},{' '}
          {dir === 'asc' ? 'oldest first' : 'newest first'}
        </>
      }
      filters={
        <>
          <DateRangeFilter from={filter('from')} to={filter('to')} />
          <FilterField label="Actor">
            <SearchInput
              key={`actor:${boxes}`}
              value={search.actor ?? ''}
              onChange={(v) => set({ actor: v.trim() || undefined })}
              placeholder="Username or email"
              aria-label="Actor"
              className="w-52"
            />
          </FilterField>
          <TitledSelectFilter
            title="Record"
            label="Record type"
            all="All records"
            options={AUDIT_ENTITY_LABELS}
            className="w-44"
            {...filter('entityType')}
          />
          <TitledSelectFilter
            title="Action"
            all="All actions"
            options={AUDIT_ACTION_LABELS}
            className="w-48"
            {...filter('action')}
          />
          <FilterField label="Summary">
            <SearchInput
              key={`q:${boxes}`}
              value={search.q ?? ''}
              onChange={(v) => set({ q: v.trim() || undefined })}
              placeholder="Search the summary"
              aria-label="Search the summary"
              className="w-64"
            />
          </FilterField>
        </>
      }
    >
      <Table containerClassName="rounded-md border" aria-label="Audit log">
        <TableHeader className="bg-background">
          <TableRow>
            <TableHead className="w-10" />
            <SortableHead
              column="createdAt"
              sort={{ by: 'createdAt', dir: search.dir ?? 'desc' }}
              onSort={(next) => set({ dir: next.dir === 'asc' ? 'asc' : undefined })}
              className="w-px"
            >
              Time
            </SortableHead>
            <TableHead>Actor</TableHead>
            <TableHead className="w-px">Action</TableHead>
            <TableHead>Record</TableHead>
            <TableHead>Summary</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          <TableStates
            columns={6}
            loading={list.isPending}
            empty={
              list.data && entries.length === 0
                ? filtered
                  ? 'No entries match these filters.'
                  : 'Nothing has been recorded yet.'
                : undefined
            }
          />
          {entries.map((e) => {
            const expanded = open.has(e.id);
            return (
              <Fragment key={e.id}>
                <TableRow data-testid="audit-row" data-entry-id={e.id} className="align-top">
                  <TableCell>
                    <Button
                      variant="ghost"
                      size="icon-sm"
                      aria-expanded={expanded}
                      aria-label={expanded ? 'Hide the changes' : 'Show the changes'}
                      onClick={() => toggle(e.id)}
                    >
                      {expanded ? <ChevronDownIcon /> : <ChevronRightIcon />}
                    </Button>
                  </TableCell>
                  {/* The time wraps after its date on a phone, leaving the width to the names. */}
                  <TableCell className="min-w-24 whitespace-normal tabular-nums">
                    {formatAuditTime(e.createdAt)}
                  </TableCell>
                  <TableCell className={WRAP}>
                    {e.actor ? (
                      <button
                        type="button"
                        className="text-left underline-offset-4 hover:underline"
                        title="Show only this actor's entries"
                        onClick={() => setFromOutside({ ...search, actor: e.actor!.username })}
                      >
                        <ActorName actor={e.actor} />
                      </button>
                    ) : (
                      <ActorName actor={null} ip={e.ip} />
                    )}
                  </TableCell>
                  <TableCell className="whitespace-nowrap">
                    <ActionBadge action={e.action} />
                  </TableCell>
                  <TableCell className={WRAP}>
                    <AuditRecordLink entry={e} />
                  </TableCell>
                  <TableCell className={WRAP} data-testid="audit-summary">
                    {withWrapPoints(e.summary)}
                  </TableCell>
                </TableRow>
                {expanded && (
                  <TableRow className="bg-muted/30 hover:bg-muted/30">
                    <TableCell />
                    <TableCell colSpan={5} className="whitespace-normal">
                      <AuditEntryDetails entry={e} />
                    </TableCell>
                  </TableRow>
                )}
              </Fragment>
            );
          })}
        </TableBody>
      </Table>
    </FilteredLog>
  );
}
