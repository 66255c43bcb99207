CREATE TABLE "payment_allocations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"payment_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"enrollment_id" uuid,
	"booking_id" uuid,
	"enrollment_installment_id" uuid,
	"booking_installment_id" uuid,
	"installment_number" integer,
	"due_date" date,
	"amount_minor" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"receipt_number" text NOT NULL,
	"receipt_series" text NOT NULL,
	"receipt_year" integer NOT NULL,
	"receipt_seq" integer NOT NULL,
	"branch_id" uuid,
	"branch_name" text,
	"payer_id" uuid,
	"payer_name" text NOT NULL,
	"payer_email" text,
	"enrollment_id" uuid,
	"booking_id" uuid,
	"subject" text NOT NULL,
	"amount_minor" bigint NOT NULL,
	"currency" text NOT NULL,
	"method" text NOT NULL,
	"reference" text,
	"note" text,
	"received_at" timestamp with time zone NOT NULL,
	"received_by" uuid,
	"received_by_name" text,
	"status" text DEFAULT 'valid' NOT NULL,
	"voided_at" timestamp with time zone,
	"voided_by" uuid,
	"voided_by_name" text,
	"void_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "receipt_counters" (
	"series" text NOT NULL,
	"year" integer NOT NULL,
	"last" integer NOT NULL,
	CONSTRAINT "receipt_counters_series_year_pk" PRIMARY KEY("series","year")
);
--> statement-breakpoint
ALTER TABLE "enrollment_installments" ADD COLUMN "amount_paid_minor" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "enrollments" ADD COLUMN "admission_fee_paid_minor" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "booking_installments" ADD COLUMN "amount_paid_minor" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_allocations" ADD CONSTRAINT "payment_allocations_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_allocations" ADD CONSTRAINT "payment_allocations_enrollment_id_enrollments_id_fk" FOREIGN KEY ("enrollment_id") REFERENCES "public"."enrollments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_allocations" ADD CONSTRAINT "payment_allocations_booking_id_treatment_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."treatment_bookings"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_allocations" ADD CONSTRAINT "payment_allocations_enrollment_installment_id_enrollment_installments_id_fk" FOREIGN KEY ("enrollment_installment_id") REFERENCES "public"."enrollment_installments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_allocations" ADD CONSTRAINT "payment_allocations_booking_installment_id_booking_installments_id_fk" FOREIGN KEY ("booking_installment_id") REFERENCES "public"."booking_installments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_branch_id_branches_id_fk" FOREIGN KEY ("branch_id") REFERENCES "public"."branches"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_payer_id_users_id_fk" FOREIGN KEY ("payer_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_enrollment_id_enrollments_id_fk" FOREIGN KEY ("enrollment_id") REFERENCES "public"."enrollments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_booking_id_treatment_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."treatment_bookings"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_received_by_users_id_fk" FOREIGN KEY ("received_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_voided_by_users_id_fk" FOREIGN KEY ("voided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payment_allocations_payment_idx" ON "payment_allocations" USING btree ("payment_id");--> statement-breakpoint
CREATE INDEX "payment_allocations_enrollment_inst_idx" ON "payment_allocations" USING btree ("enrollment_installment_id") WHERE "payment_allocations"."enrollment_installment_id" is not null;--> statement-breakpoint
CREATE INDEX "payment_allocations_booking_inst_idx" ON "payment_allocations" USING btree ("booking_installment_id") WHERE "payment_allocations"."booking_installment_id" is not null;--> statement-breakpoint
CREATE INDEX "payment_allocations_enrollment_idx" ON "payment_allocations" USING btree ("enrollment_id") WHERE "payment_allocations"."enrollment_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "payments_receipt_uq" ON "payments" USING btree ("receipt_series","receipt_year","receipt_seq");--> statement-breakpoint
CREATE INDEX "payments_received_idx" ON "payments" USING btree ("received_at","id");--> statement-breakpoint
CREATE INDEX "payments_branch_received_idx" ON "payments" USING btree ("branch_id","received_at");--> statement-breakpoint
CREATE INDEX "payments_cashier_received_idx" ON "payments" USING btree ("received_by","received_at");--> statement-breakpoint
CREATE INDEX "payments_enrollment_idx" ON "payments" USING btree ("enrollment_id") WHERE "payments"."enrollment_id" is not null;--> statement-breakpoint
CREATE INDEX "payments_booking_idx" ON "payments" USING btree ("booking_id") WHERE "payments"."booking_id" is not null;--> statement-breakpoint
CREATE INDEX "payments_receipt_number_idx" ON "payments" USING btree ("receipt_number");--> statement-breakpoint
-- Carry over what the paid/unpaid switch recorded (docs/payments.md#carried-over-payments): every paid
-- admission fee and installment becomes one valid payment of method "other", received when it was
-- marked paid, by an unknown cashier, numbered per branch and year in that order.
UPDATE "enrollment_installments" SET "amount_paid_minor" = "amount_minor" WHERE "is_paid";--> statement-breakpoint
UPDATE "booking_installments" SET "amount_paid_minor" = "amount_minor" WHERE "is_paid";--> statement-breakpoint
UPDATE "enrollments" SET "admission_fee_paid_minor" = "admission_fee_minor" WHERE "admission_fee_paid";--> statement-breakpoint
CREATE TEMP TABLE "carry_over" AS
SELECT gen_random_uuid() AS payment_id, i.*,
  coalesce(i.branch_id::text, 'none') AS series,
  extract(year FROM i.paid_at)::int AS year
FROM (
  SELECT 'admission_fee' AS kind, e.id AS enrollment_id, NULL::uuid AS booking_id,
    NULL::uuid AS enrollment_installment_id, NULL::uuid AS booking_installment_id,
    NULL::int AS installment_number, NULL::date AS due_date, e.admission_fee_minor AS amount,
    coalesce(e.admission_fee_paid_at, e.updated_at) AS paid_at, e.user_id AS payer_id,
    coalesce(u.username, e.deleted_username, 'Unknown') AS payer_name, coalesce(u.email, e.deleted_email) AS payer_email,
    coalesce(c.course_name, e.deleted_course_name, 'Unknown course') AS subject, e.currency, u.branch_id
  FROM enrollments e LEFT JOIN users u ON u.id = e.user_id LEFT JOIN courses c ON c.id = e.course_id
  WHERE e.admission_fee_paid AND e.admission_fee_minor > 0
  UNION ALL
  SELECT 'enrollment_installment', e.id, NULL, ei.id, NULL, ei.seq + 1, ei.due_date, ei.amount_minor,
    coalesce(ei.paid_at, e.updated_at), e.user_id,
    coalesce(u.username, e.deleted_username, 'Unknown'), coalesce(u.email, e.deleted_email),
    coalesce(c.course_name, e.deleted_course_name, 'Unknown course'), e.currency, u.branch_id
  FROM enrollment_installments ei JOIN enrollments e ON e.id = ei.enrollment_id
    LEFT JOIN users u ON u.id = e.user_id LEFT JOIN courses c ON c.id = e.course_id
  WHERE ei.is_paid AND ei.amount_minor > 0
  UNION ALL
  SELECT 'booking_installment', NULL, b.id, NULL, bi.id, bi.seq + 1, bi.due_date, bi.amount_minor,
    coalesce(bi.paid_at, b.updated_at), b.user_id,
    coalesce(u.username, b.deleted_username, 'Unknown'), coalesce(u.email, b.deleted_email),
    coalesce(t.treatment_name, b.treatment_name, 'Unknown treatment'), b.currency, u.branch_id
  FROM booking_installments bi JOIN treatment_bookings b ON b.id = bi.booking_id
    LEFT JOIN users u ON u.id = b.user_id LEFT JOIN treatments t ON t.id = b.treatment_id
  WHERE bi.is_paid AND bi.amount_minor > 0
) i;--> statement-breakpoint
ALTER TABLE "carry_over" ADD COLUMN "seq" int;--> statement-breakpoint
UPDATE "carry_over" c SET "seq" = n.seq FROM (
  SELECT payment_id, row_number() OVER (PARTITION BY series, year ORDER BY paid_at, payment_id)::int AS seq FROM carry_over
) n WHERE n.payment_id = c.payment_id;--> statement-breakpoint
INSERT INTO "payments" ("id", "receipt_number", "receipt_series", "receipt_year", "receipt_seq", "branch_id", "branch_name",
  "payer_id", "payer_name", "payer_email", "enrollment_id", "booking_id", "subject", "amount_minor", "currency", "method",
  "note", "received_at", "status", "created_at")
SELECT c.payment_id,
  coalesce(nullif(upper(left(regexp_replace(br.name, '[^A-Za-z]', '', 'g'), 3)), ''), 'GEN') || '-' || c.year || '-' || lpad(c.seq::text, 6, '0'),
  c.series, c.year, c.seq, c.branch_id, br.name, c.payer_id, c.payer_name, c.payer_email, c.enrollment_id, c.booking_id,
  c.subject, c.amount, c.currency, 'other', 'Carried over from the paid/unpaid switch.', c.paid_at, 'valid', c.paid_at
FROM carry_over c LEFT JOIN branches br ON br.id = c.branch_id;--> statement-breakpoint
INSERT INTO "payment_allocations" ("payment_id", "kind", "enrollment_id", "booking_id", "enrollment_installment_id",
  "booking_installment_id", "installment_number", "due_date", "amount_minor")
SELECT payment_id, kind, enrollment_id, booking_id, enrollment_installment_id, booking_installment_id,
  installment_number, due_date, amount FROM carry_over;--> statement-breakpoint
INSERT INTO "receipt_counters" ("series", "year", "last")
SELECT series, year, max(seq) FROM carry_over GROUP BY series, year;--> statement-breakpoint
DROP TABLE "carry_over";
