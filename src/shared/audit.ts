/**
 * The audit trail's vocabulary, shared by the server (what it records) and the Audit log screen
 * (its filters and labels). docs/audit.md#what-is-recorded lists who records which action.
 */
import { valuesOf } from './vocabulary';

export const AUDIT_ACTION_LABELS = {
  create: 'Create',
  update: 'Update',
  delete: 'Delete',
  role_change: 'Role change',
  branch_move: 'Branch move',
  sign_in: 'Sign-in',
  sign_in_failed: 'Failed sign-in',
  sign_in_throttled: 'Throttled sign-in',
  sign_out: 'Sign-out',
  password_change: 'Password change',
  password_reset_request: 'Password reset request',
  password_reset: 'Password reset',
  download: 'Download',
  // Money and state changes of enrolments, installments, bookings and payments.
  mark_paid: 'Marked paid',
  mark_unpaid: 'Marked unpaid',
  complete: 'Complete',
  cancel: 'Cancel',
  void: 'Void',
  // Appointments (docs/appointments.md): moved in time or to another practitioner or room, a status change.
  reschedule: 'Reschedule',
  status_change: 'Status change',
  // Money that changes after the fact (docs/payments.md#adjustments, #refunds).
  refund: 'Refund',
  approve: 'Approve',
  reject: 'Reject',
  revoke: 'Revoke',
  // A receipt sent to the payer; the log's own archive runs (docs/audit.md#retention).
  email: 'E-mail',
  archive: 'Archive',
  // A till opened with its float and closed with its count (docs/payments.md#tills).
  open: 'Open',
  close: 'Close',
  // The portal (docs/portal.md): a sign-in code asked for, an invitation sent and accepted.
  sign_in_code_request: 'Sign-in code request',
  invite: 'Invitation',
  invitation_accept: 'Invitation accepted',
};
export const AUDIT_ACTIONS = valuesOf(AUDIT_ACTION_LABELS);
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_ENTITY_LABELS = {
  user: 'User',
  branch: 'Branch',
  course: 'Course',
  enrollment: 'Enrolment',
  installment: 'Installment',
  admission_fee: 'Admission fee',
  treatment: 'Treatment',
  booking: 'Booking',
  booking_installment: 'Booking installment',
  session: 'Sessions',
  session_note: 'Session note',
  appointment: 'Appointment',
  payment: 'Payment',
  settings: 'Settings',
  report: 'Report',
  receipt: 'Receipt',
  adjustment: 'Adjustment',
  refund: 'Refund',
  credit_note: 'Credit note',
  scholarship_scheme: 'Scholarship scheme',
  audit_log: 'Audit log',
  // The calendar's resources (docs/appointments.md#resources).
  practitioner: 'Practitioner',
  room: 'Room',
  time_off: 'Time off',
  branch_closure: 'Branch closure',
  till: 'Till',
  statement: 'Statement',
  // Classes (docs/classes.md#audit).
  batch: 'Batch',
  class_session: 'Class session',
  roster: 'Roster place',
  attendance: 'Attendance',
  // Settings → Messages: one template per event, channel and language (docs/messages.md#templates).
  message_template: 'Message template',
};
export const AUDIT_ENTITY_TYPES = valuesOf(AUDIT_ENTITY_LABELS);
export type AuditEntityType = (typeof AUDIT_ENTITY_TYPES)[number];

/** A JSON value as stored in an entry's changes. */
export type AuditValue = string | number | boolean | null | AuditValue[] | { [key: string]: AuditValue };

/** One changed field: `before` is null on a create, `after` null on a delete. */
export interface AuditChange {
  field: string;
  before: AuditValue;
  after: AuditValue;
}

export function auditActionLabel(action: string): string {
  return (AUDIT_ACTION_LABELS as Record<string, string>)[action] ?? action;
}

export function auditEntityLabel(entityType: string): string {
  return (AUDIT_ENTITY_LABELS as Record<string, string>)[entityType] ?? entityType;
}
