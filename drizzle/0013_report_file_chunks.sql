CREATE TABLE "report_file_chunks" (
	"file_id" uuid NOT NULL,
	"run_id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"data" "bytea" NOT NULL,
	CONSTRAINT "report_file_chunks_file_id_run_id_seq_pk" PRIMARY KEY("file_id","run_id","seq")
);
--> statement-breakpoint
ALTER TABLE "report_files" ADD COLUMN "run_id" uuid;--> statement-breakpoint
ALTER TABLE "report_files" ADD COLUMN "size" bigint;--> statement-breakpoint
ALTER TABLE "report_file_chunks" ADD CONSTRAINT "report_file_chunks_file_id_report_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."report_files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Files stored whole before this migration are moved into pieces of 1 MB under a run of their own
-- (docs/reports.md#how-a-built-file-is-stored), so the download reads every file the same way.
UPDATE "report_files" SET "run_id" = gen_random_uuid(), "size" = length("data") WHERE "data" IS NOT NULL;--> statement-breakpoint
INSERT INTO "report_file_chunks" ("file_id", "run_id", "seq", "data")
SELECT f."id", f."run_id", g.seq, substring(f."data" FROM g.seq * 1048576 + 1 FOR 1048576)
FROM "report_files" f, generate_series(0, greatest(length(f."data") - 1, 0) / 1048576) AS g(seq)
WHERE f."data" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "report_files" DROP COLUMN "data";
