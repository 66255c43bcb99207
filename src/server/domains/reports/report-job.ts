import type { AppDeps } from '../../deps';

/**
 * Owned by the reports issue: builds the report file row `reportFileId` (streaming), reporting
 * progress 0..100 through `onProgress`. Safe to run twice.
 */
export async function buildReportFile(_deps: AppDeps, _reportFileId: string, _onProgress: (pct: number) => Promise<void>): Promise<void> {
  throw new Error('Report files are not implemented yet');
}
