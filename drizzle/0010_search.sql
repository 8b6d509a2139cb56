-- Issue 12, decision 0190: btree_gin lets one GIN index hold campus_id with the words (campus-scoped search).
CREATE EXTENSION IF NOT EXISTS btree_gin;--> statement-breakpoint
CREATE TABLE "search_counts" (
	"campus_id" text NOT NULL,
	"text_key" text NOT NULL,
	"search_text" text NOT NULL,
	"total_views" integer DEFAULT 0 NOT NULL,
	"unique_views" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_modified" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "search_counts_campus_id_text_key_pk" PRIMARY KEY("campus_id","text_key")
);
--> statement-breakpoint
CREATE TABLE "search_history" (
	"user_id" text NOT NULL,
	"campus_id" text NOT NULL,
	"text_key" text NOT NULL,
	"search_text" text NOT NULL,
	"search_qty" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_modified" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "search_history_user_id_campus_id_text_key_pk" PRIMARY KEY("user_id","campus_id","text_key")
);
--> statement-breakpoint
CREATE TABLE "search_terms" (
	"campus_id" text NOT NULL,
	"term" text NOT NULL,
	"doc_count" integer NOT NULL,
	CONSTRAINT "search_terms_campus_id_term_pk" PRIMARY KEY("campus_id","term")
);
--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "search_tsv" "tsvector" GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, regexp_replace(lower("text_plain" || ' ' || coalesce("category", '')), '[^[:alnum:]]+', ' ', 'g'))) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "search_counts" ADD CONSTRAINT "search_counts_campus_id_campuses_id_fk" FOREIGN KEY ("campus_id") REFERENCES "public"."campuses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "search_history" ADD CONSTRAINT "search_history_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "search_history" ADD CONSTRAINT "search_history_campus_id_campuses_id_fk" FOREIGN KEY ("campus_id") REFERENCES "public"."campuses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "search_terms" ADD CONSTRAINT "search_terms_campus_id_campuses_id_fk" FOREIGN KEY ("campus_id") REFERENCES "public"."campuses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "search_counts_popular_idx" ON "search_counts" USING btree ("campus_id","unique_views" DESC NULLS LAST,"total_views" DESC NULLS LAST,"text_key");--> statement-breakpoint
CREATE INDEX "search_counts_prefix_idx" ON "search_counts" USING btree ("campus_id","text_key" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "search_history_recent_idx" ON "search_history" USING btree ("user_id","campus_id","last_modified" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "search_terms_prefix_idx" ON "search_terms" USING btree ("campus_id","term" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "search_terms_suffix_idx" ON "search_terms" USING btree ("campus_id",reverse("term") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "search_terms_trgm_idx" ON "search_terms" USING gin ("campus_id","term" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "user_people_search_idx" ON "user" USING gin ("campus_id",lower("first_name" || ' ' || "last_name" || ' ' || "username") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "posts_search_idx" ON "posts" USING gin ("campus_id","search_tsv") WHERE "posts"."parent_id" is null;--> statement-breakpoint
-- Decision 0191: the term dictionary follows the posts in the same transaction, whatever writes or
-- removes a top-level post (createPost, deletePost, an account deleted with its posts), so the
-- posts code needs no search calls. Rows are locked in term order, so two writers never deadlock.
CREATE OR REPLACE FUNCTION posts_search_terms_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.search_tsv = NEW.search_tsv AND OLD.campus_id = NEW.campus_id
     AND (OLD.parent_id IS NULL) = (NEW.parent_id IS NULL) THEN
    RETURN NULL;
  END IF;
  IF TG_OP IN ('DELETE', 'UPDATE') AND OLD.parent_id IS NULL THEN
    PERFORM 1 FROM search_terms
      WHERE campus_id = OLD.campus_id AND term IN (SELECT lexeme FROM unnest(OLD.search_tsv))
      ORDER BY term FOR UPDATE;
    UPDATE search_terms SET doc_count = doc_count - 1
      WHERE campus_id = OLD.campus_id AND term IN (SELECT lexeme FROM unnest(OLD.search_tsv));
    DELETE FROM search_terms
      WHERE campus_id = OLD.campus_id AND doc_count <= 0
        AND term IN (SELECT lexeme FROM unnest(OLD.search_tsv));
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.parent_id IS NULL THEN
    INSERT INTO search_terms (campus_id, term, doc_count)
      SELECT NEW.campus_id, lexeme, 1 FROM unnest(NEW.search_tsv)
      WHERE char_length(lexeme) <= 40
      ORDER BY lexeme
      ON CONFLICT (campus_id, term) DO UPDATE SET doc_count = search_terms.doc_count + 1;
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER posts_search_terms_track
  AFTER INSERT OR DELETE OR UPDATE OF text_plain, category, campus_id, parent_id ON posts
  FOR EACH ROW EXECUTE FUNCTION posts_search_terms_track();--> statement-breakpoint
-- The posts written before this migration.
INSERT INTO search_terms (campus_id, term, doc_count)
  SELECT p.campus_id, w.lexeme, count(*)::integer
  FROM posts p CROSS JOIN LATERAL unnest(p.search_tsv) AS w
  WHERE p.parent_id IS NULL AND char_length(w.lexeme) <= 40
  GROUP BY p.campus_id, w.lexeme;
