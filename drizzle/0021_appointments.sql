CREATE TABLE "appointments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"booking_id" uuid NOT NULL,
	"customer_id" uuid,
	"treatment_id" uuid,
	"practitioner_id" uuid NOT NULL,
	"branch_id" uuid NOT NULL,
	"room_id" uuid,
	"start_at" timestamp with time zone NOT NULL,
	"end_at" timestamp with time zone NOT NULL,
	"blocked_until" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'scheduled' NOT NULL,
	"session_number" integer,
	"note" text DEFAULT '' NOT NULL,
	"status_reason" text,
	"status_changed_at" timestamp with time zone,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "appointments_range_ck" CHECK ("appointments"."start_at" < "appointments"."end_at" and "appointments"."end_at" <= "appointments"."blocked_until")
);
--> statement-breakpoint
CREATE TABLE "branch_closures" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"branch_id" uuid NOT NULL,
	"day" date NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "practitioner_branches" (
	"practitioner_id" uuid NOT NULL,
	"branch_id" uuid NOT NULL,
	CONSTRAINT "practitioner_branches_practitioner_id_branch_id_pk" PRIMARY KEY("practitioner_id","branch_id")
);
--> statement-breakpoint
CREATE TABLE "practitioner_time_off" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"practitioner_id" uuid NOT NULL,
	"start_at" timestamp with time zone NOT NULL,
	"end_at" timestamp with time zone NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "practitioner_time_off_range_ck" CHECK ("practitioner_time_off"."start_at" < "practitioner_time_off"."end_at")
);
--> statement-breakpoint
CREATE TABLE "practitioner_treatments" (
	"practitioner_id" uuid NOT NULL,
	"treatment_id" uuid NOT NULL,
	CONSTRAINT "practitioner_treatments_practitioner_id_treatment_id_pk" PRIMARY KEY("practitioner_id","treatment_id")
);
--> statement-breakpoint
CREATE TABLE "practitioners" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"color" text DEFAULT '#2563eb' NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rooms" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"branch_id" uuid NOT NULL,
	"name" text NOT NULL,
	"capacity" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "rooms_capacity_ck" CHECK ("rooms"."capacity" >= 1)
);
--> statement-breakpoint
CREATE TABLE "working_periods" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"practitioner_id" uuid NOT NULL,
	"branch_id" uuid NOT NULL,
	"weekday" smallint NOT NULL,
	"start_minute" integer NOT NULL,
	"end_minute" integer NOT NULL,
	CONSTRAINT "working_periods_weekday_ck" CHECK ("working_periods"."weekday" between 1 and 7),
	CONSTRAINT "working_periods_minutes_ck" CHECK ("working_periods"."start_minute" >= 0 and "working_periods"."end_minute" <= 1440 and "working_periods"."start_minute" < "working_periods"."end_minute")
);
--> statement-breakpoint
ALTER TABLE "treatments" ADD COLUMN "session_minutes" integer DEFAULT 60 NOT NULL;--> statement-breakpoint
ALTER TABLE "treatments" ADD COLUMN "buffer_minutes" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "treatments" ADD COLUMN "requires_room" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_booking_id_treatment_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."treatment_bookings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_customer_id_users_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_treatment_id_treatments_id_fk" FOREIGN KEY ("treatment_id") REFERENCES "public"."treatments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_practitioner_id_practitioners_id_fk" FOREIGN KEY ("practitioner_id") REFERENCES "public"."practitioners"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_branch_id_branches_id_fk" FOREIGN KEY ("branch_id") REFERENCES "public"."branches"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_room_id_rooms_id_fk" FOREIGN KEY ("room_id") REFERENCES "public"."rooms"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "branch_closures" ADD CONSTRAINT "branch_closures_branch_id_branches_id_fk" FOREIGN KEY ("branch_id") REFERENCES "public"."branches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "practitioner_branches" ADD CONSTRAINT "practitioner_branches_practitioner_id_practitioners_id_fk" FOREIGN KEY ("practitioner_id") REFERENCES "public"."practitioners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "practitioner_branches" ADD CONSTRAINT "practitioner_branches_branch_id_branches_id_fk" FOREIGN KEY ("branch_id") REFERENCES "public"."branches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "practitioner_time_off" ADD CONSTRAINT "practitioner_time_off_practitioner_id_practitioners_id_fk" FOREIGN KEY ("practitioner_id") REFERENCES "public"."practitioners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "practitioner_treatments" ADD CONSTRAINT "practitioner_treatments_practitioner_id_practitioners_id_fk" FOREIGN KEY ("practitioner_id") REFERENCES "public"."practitioners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "practitioner_treatments" ADD CONSTRAINT "practitioner_treatments_treatment_id_treatments_id_fk" FOREIGN KEY ("treatment_id") REFERENCES "public"."treatments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "practitioners" ADD CONSTRAINT "practitioners_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rooms" ADD CONSTRAINT "rooms_branch_id_branches_id_fk" FOREIGN KEY ("branch_id") REFERENCES "public"."branches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "working_periods" ADD CONSTRAINT "working_periods_practitioner_id_practitioners_id_fk" FOREIGN KEY ("practitioner_id") REFERENCES "public"."practitioners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "working_periods" ADD CONSTRAINT "working_periods_branch_id_branches_id_fk" FOREIGN KEY ("branch_id") REFERENCES "public"."branches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "appointments_branch_start_idx" ON "appointments" USING btree ("branch_id","start_at");--> statement-breakpoint
CREATE INDEX "appointments_practitioner_start_idx" ON "appointments" USING btree ("practitioner_id","start_at");--> statement-breakpoint
CREATE INDEX "appointments_room_start_idx" ON "appointments" USING btree ("room_id","start_at") WHERE "appointments"."room_id" is not null;--> statement-breakpoint
CREATE INDEX "appointments_customer_start_idx" ON "appointments" USING btree ("customer_id","start_at");--> statement-breakpoint
CREATE INDEX "appointments_booking_idx" ON "appointments" USING btree ("booking_id","start_at");--> statement-breakpoint
CREATE UNIQUE INDEX "appointments_session_uq" ON "appointments" USING btree ("booking_id","session_number") WHERE "appointments"."session_number" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "branch_closures_day_uq" ON "branch_closures" USING btree ("branch_id","day");--> statement-breakpoint
CREATE INDEX "practitioner_branches_branch_idx" ON "practitioner_branches" USING btree ("branch_id");--> statement-breakpoint
CREATE INDEX "practitioner_time_off_idx" ON "practitioner_time_off" USING btree ("practitioner_id","start_at");--> statement-breakpoint
CREATE INDEX "practitioner_treatments_treatment_idx" ON "practitioner_treatments" USING btree ("treatment_id");--> statement-breakpoint
CREATE UNIQUE INDEX "practitioners_user_uq" ON "practitioners" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "rooms_branch_name_uq" ON "rooms" USING btree ("branch_id",lower("name"));--> statement-breakpoint
CREATE INDEX "working_periods_plan_idx" ON "working_periods" USING btree ("practitioner_id","branch_id","weekday");--> statement-breakpoint
CREATE INDEX "working_periods_branch_idx" ON "working_periods" USING btree ("branch_id","weekday");--> statement-breakpoint
-- Hand-written: what drizzle's schema cannot say. btree_gist lets a GiST index hold the uuid
-- equality beside the time-range overlap, so PostgreSQL itself refuses a double booking.
CREATE EXTENSION IF NOT EXISTS btree_gist;
--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_practitioner_no_overlap" EXCLUDE USING gist ("practitioner_id" WITH =, tstzrange("start_at", "blocked_until", '[)') WITH &&) WHERE ("status" in ('scheduled', 'confirmed', 'arrived', 'completed'));
--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_customer_no_overlap" EXCLUDE USING gist ("customer_id" WITH =, tstzrange("start_at", "end_at", '[)') WITH &&) WHERE ("status" in ('scheduled', 'confirmed', 'arrived', 'completed') and "customer_id" is not null);
--> statement-breakpoint
ALTER TABLE "treatments" ADD CONSTRAINT "treatments_timing_ck" CHECK ("session_minutes" between 5 and 720 and "buffer_minutes" between 0 and 240);
