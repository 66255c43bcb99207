CREATE TABLE "audit_archive_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"cutoff" timestamp with time zone NOT NULL,
	"entry_count" integer NOT NULL,
	"archive_file" text NOT NULL,
	"tx_id" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "parent_type" text;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "parent_id" text;--> statement-breakpoint
CREATE INDEX "audit_archive_runs_tx_idx" ON "audit_archive_runs" USING btree ("tx_id");--> statement-breakpoint
CREATE INDEX "audit_log_parent_idx" ON "audit_log" USING btree ("parent_type","parent_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
-- Retention (docs/audit.md#retention): entries leave the log only through audit_log_purge, which
-- records the run (cutoff, count, archive file, its transaction) and then deletes. The append-only
-- trigger still refuses every UPDATE and TRUNCATE, and every DELETE except of an entry older than
-- the cutoff of a run recorded in the deleting transaction itself.
CREATE OR REPLACE FUNCTION "audit_log_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND EXISTS (
    SELECT 1 FROM "audit_archive_runs" r WHERE r."tx_id" = txid_current() AND OLD."created_at" < r."cutoff"
  ) THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'audit_log is append-only: % is not allowed', TG_OP USING ERRCODE = '42501';
END
$$;--> statement-breakpoint
-- Runs as the tables' owner (SECURITY DEFINER), so a role with only INSERT and SELECT on the log
-- may archive through it when granted EXECUTE (scripts/audit-app-role.sql); no one else may call it.
-- The cutoff must lie at least a month back, and the count must be what the caller archived: if
-- more entries are older than the cutoff than were written to the file, nothing is deleted.
CREATE OR REPLACE FUNCTION "audit_log_purge"(cutoff timestamptz, archived bigint, archive_file text)
RETURNS bigint LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  removed bigint;
BEGIN
  IF cutoff IS NULL OR cutoff > now() - interval '1 month' THEN
    RAISE EXCEPTION 'audit_log_purge: the cutoff must be at least a month ago' USING ERRCODE = '22023';
  END IF;
  IF archive_file IS NULL OR archive_file = '' THEN
    RAISE EXCEPTION 'audit_log_purge: name the archive file' USING ERRCODE = '22023';
  END IF;
  INSERT INTO "audit_archive_runs" ("cutoff", "entry_count", "archive_file", "tx_id")
  VALUES (cutoff, archived, archive_file, txid_current());
  DELETE FROM "audit_log" WHERE "created_at" < cutoff;
  GET DIAGNOSTICS removed = ROW_COUNT;
  IF removed <> archived THEN
    RAISE EXCEPTION 'audit_log_purge: % entries are older than the cutoff but % were archived', removed, archived
      USING ERRCODE = '40001';
  END IF;
  RETURN removed;
END
$$;--> statement-breakpoint
REVOKE ALL ON FUNCTION "audit_log_purge"(timestamptz, bigint, text) FROM PUBLIC;
