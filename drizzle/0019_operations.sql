CREATE TABLE "backups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"file" text NOT NULL,
	"bytes" bigint NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "data_exports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"token_hash" text,
	"file" text,
	"bytes" bigint,
	"attempts" bigint DEFAULT 0 NOT NULL,
	"error" text,
	"requested_at" timestamp with time zone NOT NULL,
	"ready_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	"downloaded_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "idempotency_key" text;--> statement-breakpoint
ALTER TABLE "user" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "data_exports" ADD CONSTRAINT "data_exports_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "backups_created_idx" ON "backups" USING btree ("created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "data_exports_user_idx" ON "data_exports" USING btree ("user_id","requested_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "data_exports_pending_idx" ON "data_exports" USING btree ("requested_at") WHERE "data_exports"."status" = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "data_exports_token_unique" ON "data_exports" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_idempotency_unique" ON "payments" USING btree ("idempotency_key");--> statement-breakpoint
-- Decision 0191 as amended by 0546: the term dictionary counts only the posts a student can find,
-- so a hidden or removed post's words leave the header's suggestions with it and come back if
-- it is restored.
CREATE OR REPLACE FUNCTION posts_search_terms_track() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  old_counted boolean := TG_OP IN ('DELETE', 'UPDATE') AND OLD.parent_id IS NULL AND OLD.moderation_state IS NULL;
  new_counted boolean := TG_OP IN ('INSERT', 'UPDATE') AND NEW.parent_id IS NULL AND NEW.moderation_state IS NULL;
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.search_tsv = NEW.search_tsv AND OLD.campus_id = NEW.campus_id
     AND old_counted = new_counted THEN
    RETURN NULL;
  END IF;
  IF old_counted THEN
    PERFORM 1 FROM search_terms
      WHERE campus_id = OLD.campus_id AND term IN (SELECT lexeme FROM unnest(OLD.search_tsv))
      ORDER BY term FOR UPDATE;
    UPDATE search_terms SET doc_count = doc_count - 1
      WHERE campus_id = OLD.campus_id AND term IN (SELECT lexeme FROM unnest(OLD.search_tsv));
    DELETE FROM search_terms
      WHERE campus_id = OLD.campus_id AND doc_count <= 0
        AND term IN (SELECT lexeme FROM unnest(OLD.search_tsv));
  END IF;
  IF new_counted THEN
    INSERT INTO search_terms (campus_id, term, doc_count)
      SELECT NEW.campus_id, lexeme, 1 FROM unnest(NEW.search_tsv)
      WHERE char_length(lexeme) <= 40
      ORDER BY lexeme
      ON CONFLICT (campus_id, term) DO UPDATE SET doc_count = search_terms.doc_count + 1;
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
DROP TRIGGER posts_search_terms_track ON posts;--> statement-breakpoint
CREATE TRIGGER posts_search_terms_track
  AFTER INSERT OR DELETE OR UPDATE OF text_plain, category, campus_id, parent_id, moderation_state ON posts
  FOR EACH ROW EXECUTE FUNCTION posts_search_terms_track();--> statement-breakpoint
-- The posts hidden or removed before this migration leave the dictionary.
UPDATE search_terms t SET doc_count = t.doc_count - h.n
  FROM (
    SELECT p.campus_id, w.lexeme, count(*)::integer AS n
    FROM posts p CROSS JOIN LATERAL unnest(p.search_tsv) AS w
    WHERE p.parent_id IS NULL AND p.moderation_state IS NOT NULL
    GROUP BY p.campus_id, w.lexeme
  ) h
  WHERE t.campus_id = h.campus_id AND t.term = h.lexeme;--> statement-breakpoint
DELETE FROM search_terms WHERE doc_count <= 0;
