CREATE TABLE "attendance_summaries" (
	"enrollment_id" uuid PRIMARY KEY NOT NULL,
	"present" integer NOT NULL,
	"late" integer NOT NULL,
	"absent" integer NOT NULL,
	"excused" integer NOT NULL,
	"last_attended_at" timestamp with time zone,
	"absent_in_a_row" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "attendance_summaries" ADD CONSTRAINT "attendance_summaries_enrollment_id_enrollments_id_fk" FOREIGN KEY ("enrollment_id") REFERENCES "public"."enrollments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The summaries of the marks taken before this table (docs/classes.md#falling-behind), counted
-- as refreshAttendanceSummaries counts them: marks on scheduled sessions, the run of absences
-- being the absent marks after the last present or late one.
WITH m AS (
  SELECT a."enrollment_id", a."status", cs."start_at",
         max(cs."start_at") FILTER (WHERE a."status" IN ('present', 'late'))
           OVER (PARTITION BY a."enrollment_id") AS last_attended
    FROM "attendance_marks" a
    JOIN "class_sessions" cs ON cs."id" = a."session_id"
   WHERE cs."status" = 'scheduled'
)
INSERT INTO "attendance_summaries"
  ("enrollment_id", "present", "late", "absent", "excused", "last_attended_at", "absent_in_a_row")
SELECT m."enrollment_id",
       count(*) FILTER (WHERE m."status" = 'present')::int,
       count(*) FILTER (WHERE m."status" = 'late')::int,
       count(*) FILTER (WHERE m."status" = 'absent')::int,
       count(*) FILTER (WHERE m."status" = 'excused')::int,
       max(m.last_attended),
       count(*) FILTER (WHERE m."status" = 'absent' AND m."start_at" > coalesce(m.last_attended, '-infinity'))::int
  FROM m
 GROUP BY m."enrollment_id";
