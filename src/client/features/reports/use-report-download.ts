import { useCallback, useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';

export interface ReportRequest {
  /** What the user asked for, e.g. 'Course List (Excel)': used in messages. */
  label: string;
  method: 'GET' | 'POST';
  /** Same-origin REST path with its query string; the session cookie goes along. */
  path: string;
  body?: unknown;
  /** Used when the answer names no file. */
  fallbackName: string;
}

export interface PreparedFile {
  id: string;
  label: string;
  fileName: string;
  status: 'queued' | 'building' | 'ready' | 'failed';
  progress: number;
  downloadUrl: string | null;
}

function fileNameOf(res: Response): string | null {
  const m = /filename="?([^";]+)"?/i.exec(res.headers.get('content-disposition') ?? '');
  return m ? m[1]! : null;
}

async function messageOf(res: Response): Promise<string> {
  try {
    const body = (await res.json()) as { message?: string };
    if (body.message) return body.message;
  } catch {
    /* not JSON */
  }
  return `The server answered ${res.status}.`;
}

function save(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

const POLL_MS = 1000;

/**
 * Downloads report files. Small reports arrive at once and are saved under the server's file
 * name; large ones answer 202 and are built by the worker, so they are polled and offered when
 * ready. Every failure is shown to the user (spec said "only logged"; docs/reports.md says show it).
 */
export function useReportDownloads() {
  const [busy, setBusy] = useState<string | null>(null);
  const [files, setFiles] = useState<PreparedFile[]>([]);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const start = useCallback(async (req: ReportRequest) => {
    setBusy(req.label);
    try {
      const res = await fetch(req.path, {
        method: req.method,
        credentials: 'include',
        headers: req.body !== undefined ? { 'content-type': 'application/json' } : undefined,
        body: req.body !== undefined ? JSON.stringify(req.body) : undefined,
      });
      if (res.status === 202) {
        const job = (await res.json()) as { reportId: string; fileName: string; status: PreparedFile['status'] };
        setFiles((fs) => [
          {
            id: job.reportId,
            label: req.label,
            fileName: job.fileName,
            status: job.status,
            progress: 0,
            downloadUrl: null,
          },
          ...fs,
        ]);
        toast.info(`${req.label} is large and is being prepared. It will be offered here when ready.`);
        return;
      }
      if (!res.ok) throw new Error(await messageOf(res));
      save(await res.blob(), fileNameOf(res) ?? req.fallbackName);
    } catch (err) {
      console.error('Report download failed', err);
      toast.error(`Failed to download ${req.label}: ${err instanceof Error ? err.message : 'Unknown error'}`);
    } finally {
      if (mounted.current) setBusy(null);
    }
  }, []);

  const pending = files.filter((f) => f.status === 'queued' || f.status === 'building').map((f) => f.id);
  const pendingKey = pending.join(',');
  useEffect(() => {
    if (!pendingKey) return;
    const ids = pendingKey.split(',');
    const poll = async () => {
      for (const id of ids) {
        try {
          const res = await fetch(`/api/reports/files/${id}`, { credentials: 'include' });
          if (!res.ok) throw new Error(await messageOf(res));
          const s = (await res.json()) as Pick<PreparedFile, 'status' | 'progress' | 'downloadUrl'> & {
            error?: string | null;
          };
          setFiles((fs) =>
            fs.map((f) =>
              f.id === id ? { ...f, status: s.status, progress: s.progress, downloadUrl: s.downloadUrl } : f,
            ),
          );
          if (s.status === 'failed') toast.error(s.error ?? 'The report could not be built. Please try again.');
          if (s.status === 'ready') toast.success('Your report is ready to download.');
        } catch (err) {
          setFiles((fs) => fs.map((f) => (f.id === id ? { ...f, status: 'failed' } : f)));
          toast.error(`Failed to check the report: ${err instanceof Error ? err.message : 'Unknown error'}`);
        }
      }
    };
    const timer = setInterval(() => void poll(), POLL_MS);
    return () => clearInterval(timer);
  }, [pendingKey]);

  const fetchPrepared = useCallback(async (f: PreparedFile) => {
    if (!f.downloadUrl) return;
    try {
      const res = await fetch(f.downloadUrl, { credentials: 'include' });
      if (!res.ok) throw new Error(await messageOf(res));
      save(await res.blob(), fileNameOf(res) ?? f.fileName);
    } catch (err) {
      console.error('Report download failed', err);
      toast.error(`Failed to download ${f.label}: ${err instanceof Error ? err.message : 'Unknown error'}`);
    }
  }, []);

  const dismiss = useCallback((id: string) => setFiles((fs) => fs.filter((f) => f.id !== id)), []);

  return { busy, files, start, fetchPrepared, dismiss };
}
