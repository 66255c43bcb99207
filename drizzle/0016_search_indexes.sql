CREATE INDEX "users_phone_trgm_idx" ON "users" USING gin ("phone" gin_trgm_ops) WHERE "users"."phone" is not null;--> statement-breakpoint
CREATE INDEX "courses_course_name_trgm_idx" ON "courses" USING gin ("course_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "treatments_name_trgm_idx" ON "treatments" USING gin ("treatment_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "payments_receipt_number_prefix_idx" ON "payments" USING btree ("receipt_number" text_pattern_ops);