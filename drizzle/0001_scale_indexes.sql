-- Trigram indexes below serve ILIKE '%text%' search; pg_trgm is a trusted contrib extension (PostgreSQL 13+) and PGlite loads it in db/client.ts.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
DROP INDEX "enrollment_installments_unpaid_due_idx";--> statement-breakpoint
DROP INDEX "booking_installments_unpaid_due_idx";--> statement-breakpoint
CREATE INDEX "users_username_trgm_idx" ON "users" USING gin ("username" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_full_name_trgm_idx" ON "users" USING gin ("full_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_email_trgm_idx" ON "users" USING gin ("email" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "enrollment_installments_unpaid_due_id_idx" ON "enrollment_installments" USING btree ("due_date","id") WHERE "enrollment_installments"."is_paid" = false;--> statement-breakpoint
CREATE INDEX "enrollment_installments_enrollment_paid_idx" ON "enrollment_installments" USING btree ("enrollment_id","is_paid");--> statement-breakpoint
CREATE INDEX "booking_installments_unpaid_due_id_idx" ON "booking_installments" USING btree ("due_date","id") WHERE "booking_installments"."is_paid" = false;--> statement-breakpoint
CREATE INDEX "booking_installments_booking_paid_due_idx" ON "booking_installments" USING btree ("booking_id","is_paid","due_date");