import { DownloadIcon, XIcon } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Progress } from '@/components/ui/progress';
import type { PreparedFile } from './use-report-download';

/** Large reports being built by the worker: a progress bar, then the file. */
export function PreparedFiles({
  files,
  onDownload,
  onDismiss,
}: {
  files: PreparedFile[];
  onDownload: (f: PreparedFile) => void;
  onDismiss: (id: string) => void;
}) {
  if (!files.length) return null;
  return (
    <div className="space-y-3 rounded-lg border p-4" aria-label="Prepared reports">
      <p className="text-sm font-medium">Large reports</p>
      {files.map((f) => (
        <div key={f.id} className="flex flex-wrap items-center gap-3 text-sm">
          <span className="min-w-48 flex-1">
            {f.label} <span className="text-muted-foreground">({f.fileName})</span>
          </span>
          {f.status === 'ready' ? (
            <Button size="sm" onClick={() => onDownload(f)}>
              <DownloadIcon /> Download
            </Button>
          ) : f.status === 'failed' ? (
            <span className="text-destructive">Failed</span>
          ) : (
            <div className="flex w-56 items-center gap-2">
              <Progress value={f.progress} aria-label={`${f.label} progress`} />
              <span className="w-10 text-right tabular-nums">{f.progress}%</span>
            </div>
          )}
          <Button size="icon" variant="ghost" aria-label="Dismiss" onClick={() => onDismiss(f.id)}>
            <XIcon />
          </Button>
        </div>
      ))}
    </div>
  );
}
