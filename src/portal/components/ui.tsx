import { useEffect, useRef, type ComponentProps, type ReactNode } from 'react';

/*
 * The portal's few building blocks, plain elements with Tailwind classes: the back-office's
 * shadcn components bring Radix and tailwind-merge, more script than the portal's first screen
 * may load. Every control is at least 44 px tall (a finger's width) and shows a focus ring.
 */

const focus = 'outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50';

const buttonKinds = {
  primary: 'bg-primary text-primary-foreground hover:bg-primary/90',
  outline: 'border border-input bg-card hover:bg-accent',
  ghost: 'hover:bg-accent',
  danger: 'bg-destructive text-white hover:bg-destructive/90',
};

export function buttonClass(kind: keyof typeof buttonKinds = 'primary', extra = '') {
  return `inline-flex min-h-11 items-center justify-center gap-2 rounded-md px-4 text-sm font-medium transition-colors disabled:pointer-events-none disabled:opacity-60 [&_svg]:size-4 [&_svg]:shrink-0 ${focus} ${buttonKinds[kind]} ${extra}`;
}

export function Button({
  kind = 'primary',
  className = '',
  type = 'button',
  ...props
}: ComponentProps<'button'> & { kind?: keyof typeof buttonKinds }) {
  return <button type={type} className={buttonClass(kind, className)} {...props} />;
}

export function Card({ className = '', ...props }: ComponentProps<'section'>) {
  return <section className={`rounded-lg border bg-card p-4 shadow-xs sm:p-5 ${className}`} {...props} />;
}

export function CardTitle({ children, as: Tag = 'h2' }: { children: ReactNode; as?: 'h2' | 'h3' }) {
  return <Tag className="text-base font-semibold">{children}</Tag>;
}

export const inputClass = `block min-h-11 w-full rounded-md border border-input bg-card px-3 py-2 text-base ${focus} aria-invalid:border-destructive`;

export function Field({
  id,
  label,
  error,
  hint,
  children,
}: {
  id: string;
  label: string;
  error?: string;
  hint?: string;
  children: ReactNode;
}) {
  return (
    <div className="grid gap-1.5">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      {children}
      {hint && !error && (
        <p id={`${id}-hint`} className="text-sm text-muted-foreground">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="text-sm text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}

/** aria attributes tying an input to its Field's message. */
export function describedBy(id: string, error?: string, hint?: string) {
  return {
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? `${id}-error` : hint ? `${id}-hint` : undefined,
  } as const;
}

const badgeTones = {
  neutral: 'bg-muted text-foreground',
  good: 'bg-green-600/15 text-success-foreground',
  warn: 'bg-orange-500/15 text-warning-foreground',
  bad: 'bg-destructive/10 text-destructive',
  info: 'bg-primary/10 text-primary',
};
export type Tone = keyof typeof badgeTones;

export function Badge({ tone = 'neutral', children }: { tone?: Tone; children: ReactNode }) {
  return (
    <span className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-medium ${badgeTones[tone]}`}>
      {children}
    </span>
  );
}

/** A message in the page: `role="alert"` for failures, `status` for confirmations. */
export function Notice({ tone, children }: { tone: 'error' | 'success' | 'info'; children: ReactNode }) {
  const cls = {
    error: 'border-destructive/40 bg-destructive/5 text-destructive',
    success: 'border-green-600/30 bg-green-600/10 text-success-foreground',
    info: 'border-primary/30 bg-primary/5 text-foreground',
  }[tone];
  return (
    <div role={tone === 'error' ? 'alert' : 'status'} className={`rounded-md border px-3 py-2 text-sm ${cls}`}>
      {children}
    </div>
  );
}

/**
 * A modal dialog on the native <dialog> element: the browser traps focus, closes it on Escape and
 * gives it the dialog role, with no script library.
 */
export function Dialog({
  open,
  onClose,
  title,
  children,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    if (open && !el.open) el.showModal();
    if (!open && el.open) el.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      onClose={onClose}
      aria-labelledby="portal-dialog-title"
      className="m-auto w-[min(28rem,calc(100vw-2rem))] rounded-lg border bg-card p-0 text-foreground shadow-lg backdrop:bg-black/40"
    >
      {open && (
        <div className="grid gap-4 p-5">
          <h2 id="portal-dialog-title" className="text-lg font-semibold">
            {title}
          </h2>
          {children}
        </div>
      )}
    </dialog>
  );
}

/** A label and a value, stacked on a phone and side by side from 640 px. */
export function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-0.5 sm:flex-row sm:justify-between sm:gap-4">
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className="text-sm font-medium break-words sm:text-right">{children}</dd>
    </div>
  );
}

export function Spinner() {
  return (
    <span
      aria-hidden="true"
      className="inline-block size-4 animate-spin rounded-full border-2 border-current border-r-transparent"
    />
  );
}
