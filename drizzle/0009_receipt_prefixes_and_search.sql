CREATE TABLE "receipt_prefixes" (
	"series" text PRIMARY KEY NOT NULL,
	"prefix" text NOT NULL,
	CONSTRAINT "receipt_prefixes_prefix_unique" UNIQUE("prefix")
);
--> statement-breakpoint
CREATE INDEX "payments_search_trgm_idx" ON "payments" USING gin (("receipt_number" || ' ' || "payer_name" || ' ' || coalesce("payer_email", '') || ' ' || coalesce("reference", '') || ' ' || "subject") gin_trgm_ops);--> statement-breakpoint
-- Series that already numbered receipts keep the prefix their first receipt printed
-- (docs/payments.md#receipt-numbers). When two series printed the same prefix, the older one keeps
-- it; the other gets a fresh one with its next receipt, and its earlier receipts keep their numbers.
INSERT INTO "receipt_prefixes" ("series", "prefix")
SELECT DISTINCT ON (prefix) series, prefix FROM (
  SELECT DISTINCT ON (receipt_series) receipt_series AS series, split_part(receipt_number, '-', 1) AS prefix, received_at
  FROM payments ORDER BY receipt_series, received_at, receipt_seq
) firsts ORDER BY prefix, received_at;
