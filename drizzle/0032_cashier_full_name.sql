ALTER TABLE "payments" ADD COLUMN "received_by_full_name" text;--> statement-breakpoint
-- Receipts of payments taken before this column print the cashier's full name as it stands now
-- (the nearest record of it); payments taken from now on keep it as it was when they were taken.
UPDATE "payments" AS p SET "received_by_full_name" = nullif(btrim(u."full_name"), '')
  FROM "users" AS u WHERE u."id" = p."received_by";
