-- Hand-written: part-payments count in the statuses (docs/payments.md#statuses). The display status
-- as src/shared/enrollment-status.ts derives it, now also reading the money paid of the admission fee
-- and of each installment: any valid money allocated makes the enrolment Active (Partial).
CREATE OR REPLACE FUNCTION "enrollment_display_status_of"(p_id uuid, p_status text, p_fee_paid boolean, p_fee bigint, p_fee_paid_minor bigint)
RETURNS text LANGUAGE sql STABLE AS $$
  SELECT CASE
    WHEN (p_fee_paid OR p_fee = 0)
      AND NOT EXISTS (SELECT 1 FROM enrollment_installments i WHERE i.enrollment_id = p_id AND i.is_paid = false)
      THEN CASE WHEN lower(p_status) = 'completed' THEN 'Completed' ELSE 'Active (Paid)' END
    WHEN p_fee_paid OR p_fee_paid_minor > 0
      OR EXISTS (SELECT 1 FROM enrollment_installments i WHERE i.enrollment_id = p_id AND (i.is_paid OR i.amount_paid_minor > 0))
      THEN 'Active (Partial)'
    ELSE 'Pending Payment'
  END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "enrollments_display_status_row"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.display_status := enrollment_display_status_of(NEW.id, NEW.status, NEW.admission_fee_paid, NEW.admission_fee_minor, NEW.admission_fee_paid_minor);
  RETURN NEW;
END
$$;--> statement-breakpoint
-- A part-payment of the admission fee changes only its amount paid: the row trigger watches it too.
DROP TRIGGER "enrollments_display_status_row" ON "enrollments";--> statement-breakpoint
CREATE TRIGGER "enrollments_display_status_row" BEFORE INSERT OR UPDATE OF status, admission_fee_paid, admission_fee_minor, admission_fee_paid_minor
  ON "enrollments" FOR EACH ROW EXECUTE FUNCTION enrollments_display_status_row();--> statement-breakpoint
CREATE OR REPLACE FUNCTION "enrollment_installments_display_status"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  touched uuid[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(DISTINCT enrollment_id) INTO touched FROM new_rows;
  ELSIF TG_OP = 'UPDATE' THEN
    SELECT array_agg(DISTINCT enrollment_id) INTO touched
      FROM (SELECT enrollment_id FROM new_rows UNION SELECT enrollment_id FROM old_rows) t;
  ELSE
    SELECT array_agg(DISTINCT enrollment_id) INTO touched FROM old_rows;
  END IF;
  IF touched IS NULL THEN
    RETURN NULL;
  END IF;
  UPDATE enrollments e
     SET display_status = enrollment_display_status_of(e.id, e.status, e.admission_fee_paid, e.admission_fee_minor, e.admission_fee_paid_minor)
   WHERE e.id = ANY (touched)
     AND e.display_status IS DISTINCT FROM
         enrollment_display_status_of(e.id, e.status, e.admission_fee_paid, e.admission_fee_minor, e.admission_fee_paid_minor);
  RETURN NULL;
END
$$;--> statement-breakpoint
DROP FUNCTION "enrollment_display_status_of"(uuid, text, boolean, bigint);--> statement-breakpoint
-- Recompute: only the enrolments with money on them can change (Pending Payment -> Active (Partial)).
UPDATE "enrollments" e
   SET display_status = 'Active (Partial)'
 WHERE e.display_status = 'Pending Payment'
   AND (e.admission_fee_paid_minor > 0
        OR EXISTS (SELECT 1 FROM enrollment_installments i WHERE i.enrollment_id = e.id AND i.amount_paid_minor > 0));--> statement-breakpoint
-- A booking's stored payment status (computePaymentStatus in src/shared/booking-status.ts): a
-- pending booking with part of an installment paid is partially paid.
UPDATE "treatment_bookings" b
   SET payment_status = 'partially_paid'
 WHERE b.payment_status = 'pending'
   AND EXISTS (SELECT 1 FROM booking_installments i WHERE i.booking_id = b.id AND i.amount_paid_minor > 0);
