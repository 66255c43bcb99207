ALTER TABLE "branches" ADD COLUMN "phone" text;--> statement-breakpoint
ALTER TABLE "organisation" ADD COLUMN "bank_details" text DEFAULT '' NOT NULL;