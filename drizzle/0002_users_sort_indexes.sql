CREATE INDEX "users_username_sort_idx" ON "users" USING btree ("username","id");--> statement-breakpoint
CREATE INDEX "users_full_name_sort_idx" ON "users" USING btree ("full_name","id");--> statement-breakpoint
CREATE INDEX "users_email_sort_idx" ON "users" USING btree ("email","id");