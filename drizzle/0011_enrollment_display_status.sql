ALTER TABLE "enrollments" ADD COLUMN "display_status" text DEFAULT 'Pending Payment' NOT NULL;--> statement-breakpoint
-- The display status as src/shared/enrollment-status.ts derives it (docs/performance.md#stored-display-status).
CREATE OR REPLACE FUNCTION "enrollment_display_status_of"(p_id uuid, p_status text, p_fee_paid boolean, p_fee bigint)
RETURNS text LANGUAGE sql STABLE AS $$
  SELECT CASE
    WHEN (p_fee_paid OR p_fee = 0)
      AND NOT EXISTS (SELECT 1 FROM enrollment_installments i WHERE i.enrollment_id = p_id AND i.is_paid = false)
      THEN CASE WHEN lower(p_status) = 'completed' THEN 'Completed' ELSE 'Active (Paid)' END
    WHEN p_fee_paid OR EXISTS (SELECT 1 FROM enrollment_installments i WHERE i.enrollment_id = p_id AND i.is_paid = true)
      THEN 'Active (Partial)'
    ELSE 'Pending Payment'
  END
$$;--> statement-breakpoint
-- A write to the enrolment's own status or admission fee: set the column in the same row write.
CREATE OR REPLACE FUNCTION "enrollments_display_status_row"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.display_status := enrollment_display_status_of(NEW.id, NEW.status, NEW.admission_fee_paid, NEW.admission_fee_minor);
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "enrollments_display_status_row" BEFORE INSERT OR UPDATE OF status, admission_fee_paid, admission_fee_minor
  ON "enrollments" FOR EACH ROW EXECUTE FUNCTION enrollments_display_status_row();--> statement-breakpoint
-- A write to instalments (insert, payment, void, toggle, edit, delete): once per statement, for the
-- enrolments it touched, and only where the status changes. (A deleted enrolment's cascade finds no
-- row left to update.)
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
     SET display_status = enrollment_display_status_of(e.id, e.status, e.admission_fee_paid, e.admission_fee_minor)
   WHERE e.id = ANY (touched)
     AND e.display_status IS DISTINCT FROM
         enrollment_display_status_of(e.id, e.status, e.admission_fee_paid, e.admission_fee_minor);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "enrollment_installments_display_status_ins" AFTER INSERT ON "enrollment_installments"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION enrollment_installments_display_status();--> statement-breakpoint
CREATE TRIGGER "enrollment_installments_display_status_upd" AFTER UPDATE ON "enrollment_installments"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION enrollment_installments_display_status();--> statement-breakpoint
CREATE TRIGGER "enrollment_installments_display_status_del" AFTER DELETE ON "enrollment_installments"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION enrollment_installments_display_status();--> statement-breakpoint
-- Backfill: every existing enrolment, before its index is built.
UPDATE "enrollments" e
   SET display_status = enrollment_display_status_of(e.id, e.status, e.admission_fee_paid, e.admission_fee_minor);--> statement-breakpoint
CREATE INDEX "enrollments_display_status_created_idx" ON "enrollments" USING btree ("display_status","created_at");
