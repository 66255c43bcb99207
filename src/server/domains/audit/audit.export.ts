import { PassThrough, type Readable } from 'node:stream';
import type { ServiceContext } from '../context';
import { auditActionLabel, auditEntityLabel, type AuditChange } from '../../../shared/audit';
import type { TAuditEntry } from '@shared/schemas/audit.output';
import { formatTimestamp } from '../../../shared/format';
import { reportFileName } from '../../../shared/report-columns';
import type { TAuditFilters } from '@shared/schemas/audit';
import type { ReportColumn, ReportRow, ReportSource } from '../reports/report-source';
import { writeXlsx } from '../reports/report-writers';
import { CONTENT_TYPES } from '../reports/reports.service';
import { recordAudit } from './audit.service';
import { assertAuditReader, auditBatches, auditWhere } from './audit.queries';

const COLUMNS: ReportColumn[] = [
  { key: 'time', header: 'Time', type: 'text', width: 21 },
  { key: 'actor', header: 'Actor', type: 'text', width: 20 },
  { key: 'role', header: 'Role', type: 'text', width: 12 },
  { key: 'action', header: 'Action', type: 'text', width: 18 },
  { key: 'entityType', header: 'Record', type: 'text', width: 16 },
  { key: 'entityId', header: 'Record id', type: 'text', width: 38 },
  { key: 'summary', header: 'Summary', type: 'text', width: 60 },
  { key: 'changes', header: 'Changes', type: 'text', width: 80 },
  { key: 'ip', header: 'IP address', type: 'text', width: 18 },
  { key: 'userAgent', header: 'User agent', type: 'text', width: 40 },
  { key: 'requestId', header: 'Request id', type: 'text', width: 14 },
];

const valueText = (v: AuditChange['before']) => (v === null ? '—' : typeof v === 'string' ? v : JSON.stringify(v));

export function changesText(changes: AuditChange[]): string {
  return changes.map((c) => `${c.field}: ${valueText(c.before)} → ${valueText(c.after)}`).join('; ');
}

function toRow(e: TAuditEntry, timeZone: string): ReportRow {
  return {
    time: formatTimestamp(e.createdAt, timeZone),
    actor: e.actor?.username ?? 'anonymous',
    role: e.actor?.role ?? null,
    action: auditActionLabel(e.action),
    entityType: auditEntityLabel(e.entityType),
    entityId: e.entityId,
    summary: e.summary,
    changes: changesText(e.changes),
    ip: e.ip,
    userAgent: e.userAgent,
    requestId: e.requestId,
  };
}

function filterLines(f: TAuditFilters): string[] {
  const lines: string[] = [];
  if (f.from || f.to) lines.push(`Dates: ${f.from ?? '…'} to ${f.to ?? '…'}`);
  if (f.actorId) lines.push(`Actor id: ${f.actorId}`);
  if (f.actor) lines.push(`Actor: ${f.actor}`);
  if (f.action) lines.push(`Action: ${auditActionLabel(f.action)}`);
  if (f.entityType) lines.push(`Record: ${auditEntityLabel(f.entityType)}`);
  if (f.entityId) lines.push(`Record id: ${f.entityId}`);
  if (f.search) lines.push(`Summary contains: ${f.search}`);
  return lines;
}

function todayText(timeZone: string): string {
  return formatTimestamp(new Date(), timeZone).slice(0, 10);
}

/**
 * `GET /api/audit/export`: the filtered log as an Excel file, streamed as it is read (the same
 * streaming writer as the reports, docs/reports.md), newest first. The download is itself
 * recorded before the first byte leaves.
 */
export async function exportAudit(
  ctx: ServiceContext,
  filters: TAuditFilters,
): Promise<{ fileName: string; contentType: string; body: Readable }> {
  assertAuditReader(ctx);
  const { deps } = ctx;
  const timeZone = deps.config.TIME_ZONE;
  const where = await auditWhere(ctx.db, filters, timeZone);
  const lines = filterLines(filters);
  await recordAudit(ctx.db, ctx, {
    action: 'download',
    entityType: 'report',
    entityId: 'audit-log',
    summary: `Downloaded the audit log (Excel)${lines.length ? `; filters: ${lines.join('; ')}` : ''}`,
  });
  const source: ReportSource = {
    title: 'Audit log',
    fileBase: 'audit-log',
    columns: COLUMNS,
    filterLines: lines,
    count: () => Promise.resolve(0),
    batches: async function* (size) {
      if (where === null) return;
      for await (const batch of auditBatches(ctx.db, where, size)) yield batch.map((e) => toRow(e, timeZone));
    },
    totals: () => Promise.resolve([]),
  };
  const out = new PassThrough();
  writeXlsx(source, out, { generatedAt: new Date(), timeZone }).catch((err: unknown) => {
    deps.log.error({ err }, 'audit export stream failed');
    out.destroy(err as Error);
  });
  return {
    fileName: reportFileName(source.fileBase, todayText(timeZone), 'xlsx'),
    contentType: CONTENT_TYPES.xlsx,
    body: out,
  };
}
