import type { AppDeps } from '../../deps';
import { buildStoredReport } from './reports.service';

/**
 * The `build-report` job: builds the report file row `reportFileId` (streaming its rows in
 * batches), reporting progress 0..100 through `onProgress`. Safe to run twice: a file already
 * built is left alone, and a half-built one is rebuilt from its stored parameters.
 */
export async function buildReportFile(
  deps: AppDeps,
  reportFileId: string,
  onProgress: (pct: number) => Promise<void>,
): Promise<void> {
  await buildStoredReport(deps, reportFileId, onProgress);
}
