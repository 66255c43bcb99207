import { Fragment, type ComponentProps, type ReactNode } from 'react';
import { cn } from '@/lib/utils';

/**
 * Where an e-mail, a username or a receipt number may wrap: after a dot, an underscore or a
 * hyphen and before the @, so `saman.jayasuriya@example.lk` or `BRA-2026-000123` breaks into whole
 * pieces instead of mid-word (issue 46). A dot that ends a sentence (followed by a space) is left
 * alone: the space already breaks.
 */
const WRAP_POINT = /(?<=[._-])(?=\S)|(?=@)/;
/**
 * A run of more than this many characters with no wrap point (`xxxxxxxx…` as a username) is
 * given one every `LONG_RUN` characters: otherwise it alone would set how narrow its table
 * column can get, and push a desktop table past its card.
 */
const LONG_RUN = 20;

/** The text cut at its wrap points, and every `LONG_RUN` characters of a run without a space. */
export function wrapPieces(text: string): string[] {
  const out: string[] = [];
  for (const part of text.split(WRAP_POINT)) {
    let piece = '';
    let run = 0;
    for (const ch of part) {
      run = /\s/.test(ch) ? 0 : run + 1;
      if (run > LONG_RUN) {
        out.push(piece);
        piece = '';
        run = 1;
      }
      piece += ch;
    }
    out.push(piece);
  }
  return out;
}

/**
 * `text` with a line-break opportunity (`<wbr>`) at each of its wrap points, for a span with
 * `break-words`: it wraps at spaces and those points, and mid-piece only when a piece alone is
 * wider than its box.
 */
export function withWrapPoints(text: string): ReactNode {
  const parts = wrapPieces(text);
  if (parts.length === 1) return text;
  return parts.map((part, i) => (
    <Fragment key={i}>
      {i > 0 && <wbr />}
      {part}
    </Fragment>
  ));
}

/**
 * An e-mail address, a username or other typed text shown on its own (a list's text column): it
 * wraps between words and at its dots and @, and breaks inside a piece only when that piece alone
 * is wider than the line.
 */
export function Handle({ text, className, ...props }: { text: string } & Omit<ComponentProps<'span'>, 'children'>) {
  return (
    <span {...props} className={cn('break-words whitespace-normal', className)}>
      {withWrapPoints(text)}
    </span>
  );
}

/**
 * A person as the front desk knows them: the full name, with the username or e-mail beside it in
 * a quieter type. The name wraps between its words and the handle at its dots and @
 * (`withWrapPoints`), even in a table cell that keeps its text on one line, so neither runs out of
 * a narrow column nor hides behind an ellipsis; a piece is broken only when it alone is wider than
 * the line. A screen reader reads both.
 */
export function PersonName({
  fullName,
  handle,
  fallback = 'Unknown',
  handleFirst = false,
  className,
}: {
  fullName?: string | null;
  /** The username or e-mail the screen pins beside the name. */
  handle?: string | null;
  fallback?: string;
  /** Where the spec pins the handle as the column's content (Customer Name shows the e-mail): handle, then name. */
  handleFirst?: boolean;
  className?: string;
}) {
  const name = fullName?.trim();
  if (!name && !handle) return <span className={className}>{fallback}</span>;
  const first = (handleFirst ? handle : name) || undefined;
  const second = (handleFirst ? name : handle) || undefined;
  return (
    <span className={cn('min-w-0 break-words whitespace-normal', className)} data-person>
      {first && <span className="font-medium">{withWrapPoints(first)}</span>}
      {first && second && ' '}
      {second && (
        <span className={first ? 'text-xs font-normal text-muted-foreground' : undefined}>
          {withWrapPoints(second)}
        </span>
      )}
    </span>
  );
}
