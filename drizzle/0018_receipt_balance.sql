ALTER TABLE "payments" ADD COLUMN "balance_after_minor" bigint;--> statement-breakpoint
-- Hand-written backfill: the balance each existing payment's receipt states, from the ledger as of
-- that payment: the record's charges less the allocations of the valid payments received up to and
-- including it (in received order), its own allocations counted even when it was voided since.
WITH paid AS (
  SELECT p.id, p.enrollment_id, p.booking_id, p.status, p.received_at, sum(a.amount_minor) AS amt
  FROM payments p JOIN payment_allocations a ON a.payment_id = p.id
  WHERE p.enrollment_id IS NOT NULL OR p.booking_id IS NOT NULL
  GROUP BY p.id
), running AS (
  SELECT id, coalesce(enrollment_id, booking_id) AS record_id,
    sum(CASE WHEN status = 'valid' THEN amt ELSE 0 END)
      OVER (PARTITION BY coalesce(enrollment_id, booking_id) ORDER BY received_at, id)
      + CASE WHEN status = 'void' THEN amt ELSE 0 END AS paid_so_far
  FROM paid
), charges AS (
  SELECT e.id AS record_id,
    e.admission_fee_minor + coalesce((SELECT sum(i.amount_minor) FROM enrollment_installments i WHERE i.enrollment_id = e.id), 0) AS total
  FROM enrollments e WHERE EXISTS (SELECT 1 FROM payments p WHERE p.enrollment_id = e.id)
  UNION ALL
  SELECT b.id,
    coalesce((SELECT sum(i.amount_minor) FROM booking_installments i WHERE i.booking_id = b.id), 0)
  FROM treatment_bookings b WHERE EXISTS (SELECT 1 FROM payments p WHERE p.booking_id = b.id)
)
UPDATE payments p SET balance_after_minor = greatest(0, c.total - r.paid_so_far)
FROM running r JOIN charges c ON c.record_id = r.record_id
WHERE p.id = r.id;
