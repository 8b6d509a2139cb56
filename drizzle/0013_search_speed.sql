-- Decision 0310: typo candidates are filtered by levenshtein_less_equal inside the database.
CREATE EXTENSION IF NOT EXISTS fuzzystrmatch;--> statement-breakpoint
DROP INDEX "search_terms_prefix_idx";--> statement-breakpoint
DROP INDEX "search_terms_suffix_idx";--> statement-breakpoint
CREATE INDEX "posts_search_newest_idx" ON "posts" USING btree ("campus_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "posts"."parent_id" is null;--> statement-breakpoint
CREATE INDEX "search_terms_prefix_idx" ON "search_terms" USING btree ("campus_id","term" text_pattern_ops,"doc_count");--> statement-breakpoint
CREATE INDEX "search_terms_suffix_idx" ON "search_terms" USING btree ("campus_id",reverse("term") text_pattern_ops,"term","doc_count");