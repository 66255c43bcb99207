import type { ReactNode } from 'react';
import { FileSpreadsheetIcon, FileTextIcon } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { downloadFile } from '@/lib/download';

const FORMATS = {
  excel: { label: 'Excel', extension: 'xlsx', icon: FileSpreadsheetIcon },
  pdf: { label: 'PDF', extension: 'pdf', icon: FileTextIcon },
} as const;

/**
 * The Excel and PDF buttons of a card whose files the server serves at `${path}/excel` and
 * `${path}/pdf` with the card's filters as `query`; `children` are further buttons in the row.
 */
export function FileButtons({
  path,
  query,
  what,
  formats = ['excel', 'pdf'],
  children,
}: {
  path: string;
  query: string;
  /** How the file is named in a failure toast and when the server gives no file name. */
  what: string;
  formats?: (keyof typeof FORMATS)[];
  children?: ReactNode;
}) {
  return (
    <div className="flex flex-wrap gap-2">
      {formats.map((f) => {
        const { label, extension, icon: Icon } = FORMATS[f];
        return (
          <Button
            key={f}
            variant="outline"
            size="sm"
            onClick={() => void downloadFile(`${path}/${f}${query}`, `${what} (${label})`, `${what}.${extension}`)}
          >
            <Icon /> {label}
          </Button>
        );
      })}
      {children}
    </div>
  );
}
