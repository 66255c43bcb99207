ALTER TABLE "payments" ADD COLUMN "payer_full_name" text;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "payer_full_name" text;--> statement-breakpoint
-- Receipts printed before this column print the payer's full name as it stands now (the nearest
-- record of it); payments and refunds written from now on keep it as it was when they were made.
UPDATE "payments" AS p SET "payer_full_name" = nullif(btrim(u."full_name"), '')
  FROM "users" AS u WHERE u."id" = p."payer_id";--> statement-breakpoint
UPDATE "refunds" AS r SET "payer_full_name" = p."payer_full_name"
  FROM "payments" AS p WHERE p."id" = r."payment_id";
