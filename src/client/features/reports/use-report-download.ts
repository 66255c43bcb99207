import { useQueries } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import { downloadFile, fileNameOf, messageOf, saveBlob } from '@/lib/download';
import { trpc } from '@/lib/trpc';

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
  /** Why it failed: the build's error, or why its status could not be read. */
  error: string | null;
}

const POLL_MS = 1000;

/** A large report the server answered 202 for: what the user asked for, until it is dismissed. */
interface RequestedFile {
  id: string;
  label: string;
  fileName: string;
  status: PreparedFile['status'];
}

const settled = (status: PreparedFile['status'] | undefined) => status === 'ready' || status === 'failed';

/**
 * Downloads report files. Small reports arrive at once and are saved under the server's file
 * name; large ones answer 202 and are built by the worker, so `reports.fileStatus` is polled
 * until they are ready or failed, and they are offered then. Every failure is shown to the user
 * (docs/reports.md).
 */
export function useReportDownloads() {
  const [busy, setBusy] = useState<string | null>(null);
  const [requested, setRequested] = useState<RequestedFile[]>([]);
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
        setRequested((fs) => [
          { id: job.reportId, label: req.label, fileName: job.fileName, status: job.status },
          ...fs,
        ]);
        toast.info(`${req.label} is large and is being prepared. It will be offered here when ready.`);
        return;
      }
      if (!res.ok) throw new Error(await messageOf(res));
      saveBlob(await res.blob(), fileNameOf(res) ?? req.fallbackName);
    } catch (err) {
      console.error('Report download failed', err);
      toast.error(`Failed to download ${req.label}: ${err instanceof Error ? err.message : 'Unknown error'}`);
    } finally {
      if (mounted.current) setBusy(null);
    }
  }, []);

  const statuses = useQueries({
    queries: requested.map((f) =>
      trpc.reports.fileStatus.queryOptions(
        { id: f.id },
        {
          // A failed check is shown as a failed file, not tried again.
          retry: false,
          refetchInterval: (query) =>
            query.state.status === 'error' || settled(query.state.data?.status) ? false : POLL_MS,
        },
      ),
    ),
  });

  const files = requested.map((f, i): PreparedFile => {
    const q = statuses[i];
    if (q?.isError)
      return {
        ...f,
        status: 'failed',
        progress: 0,
        downloadUrl: null,
        error: `Failed to check the report: ${q.error.message}`,
      };
    if (!q?.data) return { ...f, progress: 0, downloadUrl: null, error: null };
    const { status, progress, downloadUrl, error } = q.data;
    return { ...f, status, progress, downloadUrl, error };
  });

  // Tell the user once when a file is ready, or could not be built or checked.
  const told = useRef(new Set<string>());
  useEffect(() => {
    for (const f of files) {
      if (!settled(f.status) || told.current.has(f.id)) continue;
      told.current.add(f.id);
      if (f.status === 'ready') toast.success('Your report is ready to download.');
      else toast.error(f.error ?? 'The report could not be built. Please try again.');
    }
  }, [files]);

  const fetchPrepared = useCallback(async (f: PreparedFile) => {
    if (f.downloadUrl) await downloadFile(f.downloadUrl, f.label, f.fileName);
  }, []);

  const dismiss = useCallback((id: string) => setRequested((fs) => fs.filter((f) => f.id !== id)), []);

  return { busy, files, start, fetchPrepared, dismiss };
}
