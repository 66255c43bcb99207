ALTER TABLE "users" ADD COLUMN "nic" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "date_of_birth" date;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "gender" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "emergency_contact_name" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "emergency_contact_relation" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "emergency_contact_phone" text;--> statement-breakpoint
CREATE UNIQUE INDEX "users_nic_uq" ON "users" USING btree ("nic") WHERE "users"."nic" is not null;--> statement-breakpoint
CREATE INDEX "users_nic_trgm_idx" ON "users" USING gin ("nic" gin_trgm_ops);--> statement-breakpoint
-- Hand-written: phones stored before this migration were free text. Sri Lankan numbers in the usual
-- local or international spellings are rewritten to E.164, so the lists' phone search finds them;
-- anything else is left as it was (the next edit of that user checks it).
UPDATE "users" SET "phone" = '+94' || substr(regexp_replace("phone", '\D', '', 'g'), 2)
WHERE "phone" !~ '^\+' AND regexp_replace("phone", '\D', '', 'g') ~ '^0[1-9][0-9]{8}$';--> statement-breakpoint
UPDATE "users" SET "phone" = '+' || regexp_replace("phone", '\D', '', 'g')
WHERE regexp_replace("phone", '\D', '', 'g') ~ '^94[1-9][0-9]{8}$' AND "phone" ~ '^\s*(\+|00)?\s*94';
