DROP INDEX "reminder_log_uq";--> statement-breakpoint
CREATE INDEX "enrollments_deleted_email_trgm_idx" ON "enrollments" USING gin ("deleted_email" gin_trgm_ops) WHERE "enrollments"."deleted_email" is not null;--> statement-breakpoint
CREATE INDEX "enrollments_deleted_username_trgm_idx" ON "enrollments" USING gin ("deleted_username" gin_trgm_ops) WHERE "enrollments"."deleted_username" is not null;--> statement-breakpoint
CREATE INDEX "enrollments_deleted_course_trgm_idx" ON "enrollments" USING gin ("deleted_course_name" gin_trgm_ops) WHERE "enrollments"."deleted_course_name" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "reminder_log_installment_day_uq" ON "reminder_log" USING btree ("installment_id","sent_on","installment_kind");