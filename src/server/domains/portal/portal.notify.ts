import type { ServiceContext } from '../context';

/**
 * The one place the clinic is told that a person cancelled an appointment in the portal. The
 * messages system (notifications) hooks in here; until it does, the cancellation's audit entry
 * (with the person as actor and their reason) is what staff see.
 */
export async function notifyClinicOfPortalCancellation(
  _ctx: ServiceContext,
  _event: { appointmentId: string; reason: string | null },
): Promise<void> {
  // Deliberately empty until the messages system provides its call.
}
