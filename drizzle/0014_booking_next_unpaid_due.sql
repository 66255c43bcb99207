DROP INDEX "booking_installments_booking_paid_due_idx";--> statement-breakpoint
ALTER TABLE "treatment_bookings" ADD COLUMN "next_unpaid_due" date;--> statement-breakpoint
-- A booking is late when it is active and one of its unpaid instalments is past due. The due date
-- that decides it, the earliest among the unpaid ones, changes only when the instalments are
-- written, so it is kept here and "late" becomes `next_unpaid_due < today` on the booking's own
-- row (docs/performance.md#a-bookings-earliest-unpaid-due-date). The index it replaces answered
-- that question per booking with a probe of booking_installments.
-- Once per statement, for the bookings it touched, and only where the date changes. (A deleted
-- booking's cascade finds no row left to update.)
CREATE OR REPLACE FUNCTION "booking_installments_next_unpaid_due"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  touched uuid[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(DISTINCT booking_id) INTO touched FROM new_rows;
  ELSIF TG_OP = 'UPDATE' THEN
    SELECT array_agg(DISTINCT booking_id) INTO touched
      FROM (SELECT booking_id FROM new_rows UNION SELECT booking_id FROM old_rows) t;
  ELSE
    SELECT array_agg(DISTINCT booking_id) INTO touched FROM old_rows;
  END IF;
  IF touched IS NULL THEN
    RETURN NULL;
  END IF;
  -- One pass over the touched bookings' instalments, grouped, rather than a look-up per booking:
  -- a statement that writes thousands of instalments at once (an import, a data repair) runs
  -- before their table's statistics know them, and a per-booking subquery was then planned as a
  -- scan of the whole table each time.
  UPDATE treatment_bookings b
     SET next_unpaid_due = n.due
    FROM (SELECT t.id, m.due
            FROM unnest(touched) AS t(id)
            LEFT JOIN (SELECT i.booking_id, min(i.due_date) AS due
                         FROM booking_installments i
                        WHERE i.booking_id = ANY (touched) AND i.is_paid = false
                        GROUP BY i.booking_id) m ON m.booking_id = t.id) n
   WHERE b.id = n.id
     AND b.next_unpaid_due IS DISTINCT FROM n.due;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "booking_installments_next_unpaid_due_ins" AFTER INSERT ON "booking_installments"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION booking_installments_next_unpaid_due();--> statement-breakpoint
CREATE TRIGGER "booking_installments_next_unpaid_due_upd" AFTER UPDATE ON "booking_installments"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION booking_installments_next_unpaid_due();--> statement-breakpoint
CREATE TRIGGER "booking_installments_next_unpaid_due_del" AFTER DELETE ON "booking_installments"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION booking_installments_next_unpaid_due();--> statement-breakpoint
-- Backfill, in one pass over the instalments: a booking with nothing unpaid keeps its null.
UPDATE "treatment_bookings" b
   SET next_unpaid_due = u.due
  FROM (SELECT booking_id, min(due_date) AS due FROM booking_installments WHERE is_paid = false GROUP BY booking_id) u
 WHERE b.id = u.booking_id;
