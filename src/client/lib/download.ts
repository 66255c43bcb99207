import { toast } from 'sonner';

/** The file name a download answer gives in its content-disposition header, if any. */
export function fileNameOf(res: Response): string | null {
  const m = /filename="?([^";]+)"?/i.exec(res.headers.get('content-disposition') ?? '');
  return m ? m[1]! : null;
}

/** A failed download answer's own message, or its status when it has none (or is not JSON). */
export async function messageOf(res: Response): Promise<string> {
  try {
    const body = (await res.json()) as { message?: string };
    if (body.message) return body.message;
  } catch {
    /* not JSON */
  }
  return `The server answered ${res.status}.`;
}

/** Hands a file to the browser's own download, as if the user had followed a link to it. */
export function saveBlob(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Fetches a same-origin file with the session cookie and saves it under the server's file name. */
export async function downloadFile(path: string, label: string, fallbackName: string) {
  try {
    const res = await fetch(path, { credentials: 'include' });
    if (!res.ok) throw new Error(await messageOf(res));
    saveBlob(await res.blob(), fileNameOf(res) ?? fallbackName);
  } catch (err) {
    toast.error(`Failed to download ${label}: ${err instanceof Error ? err.message : 'Unknown error'}`);
  }
}

/** A query string of the filters that are set. */
export function queryString(params: Record<string, string | number | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}
