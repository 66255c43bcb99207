CREATE TABLE "organisation" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"address" text DEFAULT '' NOT NULL,
	"phone" text DEFAULT '' NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"receipt_footer" text DEFAULT '' NOT NULL,
	"logo_file_id" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "till_amounts" (
	"till_id" uuid NOT NULL,
	"currency" text NOT NULL,
	"opening_minor" bigint DEFAULT 0 NOT NULL,
	"in_float" boolean DEFAULT true NOT NULL,
	"expected_minor" bigint,
	"counted_minor" bigint,
	CONSTRAINT "till_amounts_till_id_currency_pk" PRIMARY KEY("till_id","currency")
);
--> statement-breakpoint
CREATE TABLE "till_payments" (
	"payment_id" uuid PRIMARY KEY NOT NULL,
	"till_id" uuid NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tills" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"branch_id" uuid,
	"branch_name" text NOT NULL,
	"cashier_id" uuid,
	"cashier_name" text NOT NULL,
	"opened_at" timestamp with time zone DEFAULT now() NOT NULL,
	"opening_day" date NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"closed_at" timestamp with time zone,
	"closed_by" uuid,
	"closed_by_name" text,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "till_required" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "organisation" ADD CONSTRAINT "organisation_logo_file_id_files_id_fk" FOREIGN KEY ("logo_file_id") REFERENCES "public"."files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "till_amounts" ADD CONSTRAINT "till_amounts_till_id_tills_id_fk" FOREIGN KEY ("till_id") REFERENCES "public"."tills"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "till_payments" ADD CONSTRAINT "till_payments_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "till_payments" ADD CONSTRAINT "till_payments_till_id_tills_id_fk" FOREIGN KEY ("till_id") REFERENCES "public"."tills"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tills" ADD CONSTRAINT "tills_branch_id_branches_id_fk" FOREIGN KEY ("branch_id") REFERENCES "public"."branches"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tills" ADD CONSTRAINT "tills_cashier_id_users_id_fk" FOREIGN KEY ("cashier_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tills" ADD CONSTRAINT "tills_closed_by_users_id_fk" FOREIGN KEY ("closed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "till_payments_till_idx" ON "till_payments" USING btree ("till_id");--> statement-breakpoint
CREATE UNIQUE INDEX "tills_one_open_uq" ON "tills" USING btree ("cashier_id","branch_id") WHERE "tills"."status" = 'open';--> statement-breakpoint
CREATE INDEX "tills_branch_day_idx" ON "tills" USING btree ("branch_id","opening_day");--> statement-breakpoint
CREATE INDEX "tills_opened_idx" ON "tills" USING btree ("opened_at","id");