import type { AppDeps } from '../deps';
import { archiveAuditLog } from '../domains/audit/audit.retention';
import { afterWrite } from '../domains/read-cache';
import { refreshOverdueBookings } from '../domains/bookings/bookings.service';
import { buildReportFile } from '../domains/reports/report-job';
import { queueOverdueReminders } from '../domains/reminders/reminders.service';
import { sendEmailJob } from '../email/send-email';
import { sendMessageJob } from '../domains/messages/send';
import { planDueSoon } from '../domains/messages/due-soon';
import { todayIn } from '../../shared/calendar';
import { isJobName, parsePayload, type JobName, type JobPayload } from './definitions';

/** What a handler may know about the run it is in. */
export interface JobContext {
  id: string;
  /** 1 on the first run, 2 on the first retry... */
  attempt: number;
  updateProgress(pct: number): Promise<void>;
}

/** A handler must be safe to run twice (at-least-once delivery, docs/jobs.md Jobs). */
export type JobHandler<N extends JobName> = (
  deps: AppDeps,
  payload: JobPayload<N>,
  job: JobContext,
) => Promise<unknown>;
export type HandlerMap = { [N in JobName]: JobHandler<N> };

export const handlers: HandlerMap = {
  'send-email': (deps, payload) => sendEmailJob(deps, payload),
  'send-overdue-reminders': async (deps) => {
    // Reads derive overdue in SQL; the daily run also brings the stored column up to date, so the
    // table itself (exports, ad-hoc queries) says overdue once a day has passed with no write.
    const today = todayIn(deps.config.TIME_ZONE);
    await afterWrite(deps, refreshOverdueBookings(deps.db, today));
    // The daily run also queues the audit archive (docs/audit.md#retention), once per day.
    if (deps.config.AUDIT_RETENTION_MONTHS) {
      await deps.jobs.enqueue('archive-audit-log', {}, { jobId: `audit-archive:${today}` });
    }
    // installment_due_soon notices (docs/messages.md#events), once per installment and due date.
    await planDueSoon(deps);
    return queueOverdueReminders(deps);
  },
  // The archive removes rows the audit list counts (its totals are reused reads).
  'archive-audit-log': (deps) => afterWrite(deps, archiveAuditLog(deps)),
  'send-message': (deps, payload, job) => sendMessageJob(deps, payload, job),
  'build-report': async (deps, payload, job) => {
    await buildReportFile(deps, payload.reportFileId, (pct) => job.updateProgress(pct));
  },
};

/** The one entry both drivers use: validate the stored payload, then call the handler. */
export async function runHandler(
  map: HandlerMap,
  deps: AppDeps,
  name: string,
  payload: unknown,
  job: JobContext,
): Promise<unknown> {
  if (!isJobName(name)) throw new Error(`No handler for job "${name}"`);
  return runNamed(map, deps, name, payload, job);
}

/** Generic in the job's name, so the handler and its parsed payload are known to belong together. */
function runNamed<N extends JobName>(map: HandlerMap, deps: AppDeps, name: N, payload: unknown, job: JobContext) {
  const handler: JobHandler<N> = map[name];
  return handler(deps, parsePayload(name, payload), job);
}

/** The default handlers with some replaced (the drivers take this as a constructor option). */
export function withHandlers(overrides: Partial<HandlerMap> = {}): HandlerMap {
  return { ...handlers, ...overrides };
}
