CREATE TABLE "adjustment_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"adjustment_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"enrollment_installment_id" uuid,
	"booking_installment_id" uuid,
	"installment_number" integer,
	"due_date" date,
	"before_minor" bigint NOT NULL,
	"after_minor" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "adjustments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"status" text NOT NULL,
	"enrollment_id" uuid,
	"booking_id" uuid,
	"branch_id" uuid,
	"payer_id" uuid,
	"payer_name" text NOT NULL,
	"subject" text NOT NULL,
	"currency" text NOT NULL,
	"percent" numeric(5, 2),
	"requested_amount_minor" bigint,
	"item_id" text,
	"scheme_id" uuid,
	"scheme_name" text,
	"reason" text NOT NULL,
	"total_minor" bigint NOT NULL,
	"created_by" uuid,
	"created_by_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"approved_by" uuid,
	"approved_by_name" text,
	"applied_at" timestamp with time zone,
	"decided_at" timestamp with time zone,
	"decision_note" text,
	"revoked_at" timestamp with time zone,
	"revoked_by" uuid,
	"revoked_by_name" text,
	"revoke_reason" text
);
--> statement-breakpoint
CREATE TABLE "credit_note_counters" (
	"series" text NOT NULL,
	"year" integer NOT NULL,
	"last" integer NOT NULL,
	CONSTRAINT "credit_note_counters_series_year_pk" PRIMARY KEY("series","year")
);
--> statement-breakpoint
CREATE TABLE "refund_allocations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"refund_id" uuid NOT NULL,
	"payment_allocation_id" uuid NOT NULL,
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
CREATE TABLE "refunds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"payment_id" uuid NOT NULL,
	"credit_note_number" text NOT NULL,
	"series" text NOT NULL,
	"year" integer NOT NULL,
	"seq" integer NOT NULL,
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
	"reason" text NOT NULL,
	"refunded_at" timestamp with time zone DEFAULT now() NOT NULL,
	"refunded_by" uuid,
	"refunded_by_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "scholarship_schemes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"default_percent" numeric(5, 2) NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "till_refunds" (
	"refund_id" uuid PRIMARY KEY NOT NULL,
	"till_id" uuid NOT NULL
);
--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "adjustment_approval_required" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "adjustment_items" ADD CONSTRAINT "adjustment_items_adjustment_id_adjustments_id_fk" FOREIGN KEY ("adjustment_id") REFERENCES "public"."adjustments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "adjustment_items" ADD CONSTRAINT "adjustment_items_enrollment_installment_id_enrollment_installments_id_fk" FOREIGN KEY ("enrollment_installment_id") REFERENCES "public"."enrollment_installments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "adjustment_items" ADD CONSTRAINT "adjustment_items_booking_installment_id_booking_installments_id_fk" FOREIGN KEY ("booking_installment_id") REFERENCES "public"."booking_installments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "adjustments" ADD CONSTRAINT "adjustments_enrollment_id_enrollments_id_fk" FOREIGN KEY ("enrollment_id") REFERENCES "public"."enrollments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "adjustments" ADD CONSTRAINT "adjustments_booking_id_treatment_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."treatment_bookings"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "adjustments" ADD CONSTRAINT "adjustments_branch_id_branches_id_fk" FOREIGN KEY ("branch_id") REFERENCES "public"."branches"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "adjustments" ADD CONSTRAINT "adjustments_payer_id_users_id_fk" FOREIGN KEY ("payer_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "adjustments" ADD CONSTRAINT "adjustments_scheme_id_scholarship_schemes_id_fk" FOREIGN KEY ("scheme_id") REFERENCES "public"."scholarship_schemes"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "adjustments" ADD CONSTRAINT "adjustments_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "adjustments" ADD CONSTRAINT "adjustments_approved_by_users_id_fk" FOREIGN KEY ("approved_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "adjustments" ADD CONSTRAINT "adjustments_revoked_by_users_id_fk" FOREIGN KEY ("revoked_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refund_allocations" ADD CONSTRAINT "refund_allocations_refund_id_refunds_id_fk" FOREIGN KEY ("refund_id") REFERENCES "public"."refunds"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refund_allocations" ADD CONSTRAINT "refund_allocations_payment_allocation_id_payment_allocations_id_fk" FOREIGN KEY ("payment_allocation_id") REFERENCES "public"."payment_allocations"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refund_allocations" ADD CONSTRAINT "refund_allocations_enrollment_id_enrollments_id_fk" FOREIGN KEY ("enrollment_id") REFERENCES "public"."enrollments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refund_allocations" ADD CONSTRAINT "refund_allocations_booking_id_treatment_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."treatment_bookings"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refund_allocations" ADD CONSTRAINT "refund_allocations_enrollment_installment_id_enrollment_installments_id_fk" FOREIGN KEY ("enrollment_installment_id") REFERENCES "public"."enrollment_installments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refund_allocations" ADD CONSTRAINT "refund_allocations_booking_installment_id_booking_installments_id_fk" FOREIGN KEY ("booking_installment_id") REFERENCES "public"."booking_installments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_branch_id_branches_id_fk" FOREIGN KEY ("branch_id") REFERENCES "public"."branches"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_payer_id_users_id_fk" FOREIGN KEY ("payer_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_enrollment_id_enrollments_id_fk" FOREIGN KEY ("enrollment_id") REFERENCES "public"."enrollments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_booking_id_treatment_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."treatment_bookings"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_refunded_by_users_id_fk" FOREIGN KEY ("refunded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "till_refunds" ADD CONSTRAINT "till_refunds_refund_id_refunds_id_fk" FOREIGN KEY ("refund_id") REFERENCES "public"."refunds"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "till_refunds" ADD CONSTRAINT "till_refunds_till_id_tills_id_fk" FOREIGN KEY ("till_id") REFERENCES "public"."tills"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "adjustment_items_adjustment_idx" ON "adjustment_items" USING btree ("adjustment_id");--> statement-breakpoint
CREATE INDEX "adjustment_items_enrollment_inst_idx" ON "adjustment_items" USING btree ("enrollment_installment_id") WHERE "adjustment_items"."enrollment_installment_id" is not null;--> statement-breakpoint
CREATE INDEX "adjustment_items_booking_inst_idx" ON "adjustment_items" USING btree ("booking_installment_id") WHERE "adjustment_items"."booking_installment_id" is not null;--> statement-breakpoint
CREATE INDEX "adjustments_enrollment_idx" ON "adjustments" USING btree ("enrollment_id") WHERE "adjustments"."enrollment_id" is not null;--> statement-breakpoint
CREATE INDEX "adjustments_booking_idx" ON "adjustments" USING btree ("booking_id") WHERE "adjustments"."booking_id" is not null;--> statement-breakpoint
CREATE INDEX "adjustments_created_idx" ON "adjustments" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "refund_allocations_refund_idx" ON "refund_allocations" USING btree ("refund_id");--> statement-breakpoint
CREATE INDEX "refund_allocations_payment_allocation_idx" ON "refund_allocations" USING btree ("payment_allocation_id");--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_credit_note_uq" ON "refunds" USING btree ("series","year","seq");--> statement-breakpoint
CREATE INDEX "refunds_payment_idx" ON "refunds" USING btree ("payment_id");--> statement-breakpoint
CREATE INDEX "refunds_refunded_idx" ON "refunds" USING btree ("refunded_at","id");--> statement-breakpoint
CREATE INDEX "refunds_branch_refunded_idx" ON "refunds" USING btree ("branch_id","refunded_at");--> statement-breakpoint
CREATE UNIQUE INDEX "scholarship_schemes_name_uq" ON "scholarship_schemes" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "till_refunds_till_idx" ON "till_refunds" USING btree ("till_id");--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_amount_positive" CHECK ("amount_minor" > 0);--> statement-breakpoint
ALTER TABLE "refund_allocations" ADD CONSTRAINT "refund_allocations_amount_positive" CHECK ("amount_minor" > 0);--> statement-breakpoint
ALTER TABLE "adjustment_items" ADD CONSTRAINT "adjustment_items_reduce_only" CHECK ("after_minor" >= 0 AND "after_minor" <= "before_minor");--> statement-breakpoint
ALTER TABLE "scholarship_schemes" ADD CONSTRAINT "scholarship_schemes_percent_range" CHECK ("default_percent" > 0 AND "default_percent" <= 100);
