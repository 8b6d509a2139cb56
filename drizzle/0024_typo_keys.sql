ALTER TABLE "saved_searches" ADD COLUMN "typo_keys" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
CREATE INDEX "saved_searches_typo_keys_idx" ON "saved_searches" USING gin ("typo_keys") WITH (fastupdate=false) WHERE "saved_searches"."cadence" <> 'off' and "saved_searches"."rare_word" is not null;--> statement-breakpoint
-- Decision 0622: the searches saved before this migration get the keys saveSearch now writes
-- (typoKeys in server/search/saved-search-listing-words.ts): the rare word with up to one letter
-- left out (4 to 6 letters) or two (7 to 24 letters), itself included.
UPDATE "saved_searches" s SET "typo_keys" = coalesce((
  SELECT array_agg(DISTINCT k ORDER BY k) FROM (
    SELECT s.rare_word AS k
    UNION ALL
    SELECT left(s.rare_word, i - 1) || substr(s.rare_word, i + 1)
    FROM generate_series(1, char_length(s.rare_word)) i
    UNION ALL
    SELECT left(s.rare_word, i - 1) || substr(s.rare_word, i + 1, j - i - 1) || substr(s.rare_word, j + 1)
    FROM generate_series(1, char_length(s.rare_word)) i, generate_series(1, char_length(s.rare_word)) j
    WHERE i < j AND char_length(s.rare_word) >= 7
  ) keys), '{}')
WHERE s.rare_word IS NOT NULL AND char_length(s.rare_word) BETWEEN 4 AND 24;
