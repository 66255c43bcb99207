import type { ReactNode } from 'react';
import { FileSpreadsheetIcon, FileTextIcon } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { useOrgToday } from '@/lib/org-clock';
import type { ReportRequest, useReportDownloads } from './use-report-download';

const FORMATS = [
  { format: 'xlsx', name: 'Excel', Icon: FileSpreadsheetIcon },
  { format: 'pdf', name: 'PDF', Icon: FileTextIcon },
] as const;

export type ReportFormat = (typeof FORMATS)[number]['format'];

/**
 * One report's Excel and PDF buttons. Each asks for its file as `request` says; the download is
 * called '{title} (Excel)' in messages and saved as '{fileBase}_{today}.xlsx' when the answer
 * names no file. All of them wait while any download runs.
 */
export function ReportFileButtons({
  downloads,
  title,
  fileBase,
  request,
  caption = '',
  disabled = false,
  className = 'flex flex-wrap gap-2',
  children,
}: {
  downloads: ReturnType<typeof useReportDownloads>;
  title: string;
  fileBase: string;
  request: (format: ReportFormat) => Pick<ReportRequest, 'method' | 'path' | 'body'>;
  /** After the format's name on the button, e.g. ' Report'. */
  caption?: string;
  disabled?: boolean;
  className?: string;
  /** Shown after the buttons, e.g. why they are disabled. */
  children?: ReactNode;
}) {
  const today = useOrgToday();
  return (
    <div className={className}>
      {FORMATS.map(({ format, name, Icon }) => (
        <Button
          key={format}
          variant="outline"
          size="sm"
          disabled={downloads.busy !== null || disabled}
          onClick={() =>
            downloads.start({
              ...request(format),
              label: `${title} (${name})`,
              fallbackName: `${fileBase}_${today}.${format}`,
            })
          }
        >
          <Icon /> {`${name}${caption}`}
        </Button>
      ))}
      {children}
    </div>
  );
}
