import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';

/** Underlined, so a link reads as one without relying on colour. */
const LINK = 'underline underline-offset-4 hover:text-primary';

export function UserLink({ id, children }: { id: string; children: ReactNode }) {
  return (
    <Link to="/users/$userId" params={{ userId: id }} className={LINK}>
      {children}
    </Link>
  );
}

export function CourseLink({ id, children }: { id: string; children: ReactNode }) {
  return (
    <Link to="/courses/$courseId" params={{ courseId: id }} className={LINK}>
      {children}
    </Link>
  );
}

/** A treatment has no screen of its own: the treatments list, searched for its name. */
export function TreatmentLink({ name }: { name: string }) {
  return (
    <Link to="/treatment/all-treatment" search={{ q: name }} className={LINK}>
      {name}
    </Link>
  );
}

/** The course id in an enrolment's path is informational: a deleted course's enrolment keeps a placeholder. */
export function EnrollmentLink({
  courseId,
  enrollmentId,
  label,
  children,
}: {
  courseId: string | undefined;
  enrollmentId: string;
  /** The accessible name when the text alone ("View") does not say which. */
  label?: string;
  children: ReactNode;
}) {
  return (
    <Link
      to="/courses/$courseId/enrollment/$enrollmentId"
      params={{ courseId: courseId ?? 'deleted', enrollmentId }}
      aria-label={label}
      className={LINK}
    >
      {children}
    </Link>
  );
}

export function BookingLink({ id, label, children }: { id: string; label?: string; children: ReactNode }) {
  return (
    <Link to="/booking-details/$id" params={{ id }} aria-label={label} className={LINK}>
      {children}
    </Link>
  );
}

/**
 * A related record's name: its link while it exists (`children`), otherwise the name this record
 * kept and a note saying it is gone.
 */
export function KeptName({ children, kept, gone }: { children?: ReactNode; kept: string; gone?: string }) {
  if (children) return children;
  return (
    <>
      {kept}
      {gone && <span className="text-muted-foreground"> ({gone})</span>}
    </>
  );
}
