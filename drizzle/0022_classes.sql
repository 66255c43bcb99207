CREATE TABLE "attendance_marks" (
	"session_id" uuid NOT NULL,
	"enrollment_id" uuid NOT NULL,
	"status" text NOT NULL,
	"note" text,
	"marked_by" uuid,
	"marked_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "attendance_marks_session_id_enrollment_id_pk" PRIMARY KEY("session_id","enrollment_id")
);
--> statement-breakpoint
CREATE TABLE "batch_members" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"batch_id" uuid NOT NULL,
	"enrollment_id" uuid NOT NULL,
	"status" text NOT NULL,
	"joined_on" date,
	"since" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "batch_slots" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"batch_id" uuid NOT NULL,
	"weekday" smallint NOT NULL,
	"start_minute" integer NOT NULL,
	"end_minute" integer NOT NULL,
	"room_id" uuid,
	CONSTRAINT "batch_slots_weekday_ck" CHECK ("batch_slots"."weekday" between 1 and 7),
	CONSTRAINT "batch_slots_minutes_ck" CHECK ("batch_slots"."start_minute" >= 0 and "batch_slots"."end_minute" <= 1440 and "batch_slots"."start_minute" < "batch_slots"."end_minute")
);
--> statement-breakpoint
CREATE TABLE "batches" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"course_id" uuid,
	"branch_id" uuid,
	"instructor_id" uuid,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	"capacity" integer NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "batches_dates_ck" CHECK ("batches"."start_date" <= "batches"."end_date"),
	CONSTRAINT "batches_capacity_ck" CHECK ("batches"."capacity" >= 1)
);
--> statement-breakpoint
CREATE TABLE "class_sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"batch_id" uuid NOT NULL,
	"instructor_id" uuid,
	"room_id" uuid,
	"day" date NOT NULL,
	"start_at" timestamp with time zone NOT NULL,
	"end_at" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'scheduled' NOT NULL,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "class_sessions_range_ck" CHECK ("class_sessions"."start_at" < "class_sessions"."end_at")
);
--> statement-breakpoint
ALTER TABLE "attendance_marks" ADD CONSTRAINT "attendance_marks_session_id_class_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."class_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attendance_marks" ADD CONSTRAINT "attendance_marks_enrollment_id_enrollments_id_fk" FOREIGN KEY ("enrollment_id") REFERENCES "public"."enrollments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attendance_marks" ADD CONSTRAINT "attendance_marks_marked_by_users_id_fk" FOREIGN KEY ("marked_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "batch_members" ADD CONSTRAINT "batch_members_batch_id_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "batch_members" ADD CONSTRAINT "batch_members_enrollment_id_enrollments_id_fk" FOREIGN KEY ("enrollment_id") REFERENCES "public"."enrollments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "batch_slots" ADD CONSTRAINT "batch_slots_batch_id_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "batch_slots" ADD CONSTRAINT "batch_slots_room_id_rooms_id_fk" FOREIGN KEY ("room_id") REFERENCES "public"."rooms"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "batches" ADD CONSTRAINT "batches_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "batches" ADD CONSTRAINT "batches_branch_id_branches_id_fk" FOREIGN KEY ("branch_id") REFERENCES "public"."branches"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "batches" ADD CONSTRAINT "batches_instructor_id_users_id_fk" FOREIGN KEY ("instructor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_sessions" ADD CONSTRAINT "class_sessions_batch_id_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_sessions" ADD CONSTRAINT "class_sessions_instructor_id_users_id_fk" FOREIGN KEY ("instructor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_sessions" ADD CONSTRAINT "class_sessions_room_id_rooms_id_fk" FOREIGN KEY ("room_id") REFERENCES "public"."rooms"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "attendance_marks_enrollment_idx" ON "attendance_marks" USING btree ("enrollment_id");--> statement-breakpoint
CREATE UNIQUE INDEX "batch_members_enrollment_uq" ON "batch_members" USING btree ("enrollment_id");--> statement-breakpoint
CREATE INDEX "batch_members_batch_idx" ON "batch_members" USING btree ("batch_id","status","since");--> statement-breakpoint
CREATE INDEX "batch_slots_batch_idx" ON "batch_slots" USING btree ("batch_id");--> statement-breakpoint
CREATE INDEX "batches_course_idx" ON "batches" USING btree ("course_id");--> statement-breakpoint
CREATE INDEX "batches_branch_idx" ON "batches" USING btree ("branch_id");--> statement-breakpoint
CREATE INDEX "batches_instructor_idx" ON "batches" USING btree ("instructor_id");--> statement-breakpoint
CREATE INDEX "class_sessions_batch_start_idx" ON "class_sessions" USING btree ("batch_id","start_at");--> statement-breakpoint
CREATE INDEX "class_sessions_room_start_idx" ON "class_sessions" USING btree ("room_id","start_at") WHERE "class_sessions"."room_id" is not null;--> statement-breakpoint
CREATE INDEX "class_sessions_instructor_start_idx" ON "class_sessions" USING btree ("instructor_id","start_at");--> statement-breakpoint
CREATE INDEX "class_sessions_start_idx" ON "class_sessions" USING btree ("start_at");--> statement-breakpoint
-- Hand-written: an instructor is never in two scheduled class sessions at once, refused by
-- PostgreSQL itself whatever the concurrency (btree_gist is installed by 0021). The cross-table
-- checks (room capacity, appointments) take advisory locks instead (docs/classes.md#locks).
ALTER TABLE "class_sessions" ADD CONSTRAINT "class_sessions_instructor_no_overlap" EXCLUDE USING gist ("instructor_id" WITH =, tstzrange("start_at", "end_at", '[)') WITH &&) WHERE ("status" = 'scheduled' and "instructor_id" is not null);
