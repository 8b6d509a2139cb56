ALTER TABLE "user" DROP CONSTRAINT "user_username_not_reserved";--> statement-breakpoint
-- Decisions 0601 and 0618 (the rule of decisions 0125, 0300 and 0445): /trade and /deals are the
-- trade's pages, so the accounts already named 'trade' or 'deals' (in any case) move to the next free
-- name, trade-2, deals-2 …, oldest account first, before the CHECK below is added. 0017's statement.
-- Hand-written part.
WITH "newly" AS (
  SELECT unnest(ARRAY['trade', 'deals']) AS "base"
), "holders" AS (
  SELECT "user"."id", "newly"."base",
    row_number() OVER (PARTITION BY "newly"."base" ORDER BY "user"."created_at", "user"."id") AS "nth"
  FROM "user" JOIN "newly" ON lower("user"."username") = "newly"."base"
), "held" AS (
  SELECT "newly"."base", lower("user"."username") AS "name"
  FROM "user" JOIN "newly" ON lower("user"."username") LIKE "newly"."base" || '-%'
), "free" AS (
  SELECT "newly"."base", "newly"."base" || '-' || "n" AS "name",
    row_number() OVER (PARTITION BY "newly"."base" ORDER BY "n") AS "nth"
  FROM "newly", generate_series(
    2,
    1 + (SELECT count(*) FROM "held" WHERE "held"."base" = "newly"."base")
      + (SELECT count(*) FROM "holders" WHERE "holders"."base" = "newly"."base")
  ) AS "n"
  WHERE "newly"."base" || '-' || "n" NOT IN (SELECT "name" FROM "held" WHERE "held"."base" = "newly"."base")
)
UPDATE "user" SET "username" = "free"."name", "updated_at" = now()
FROM "holders" JOIN "free" USING ("base", "nth")
WHERE "user"."id" = "holders"."id";--> statement-breakpoint
ALTER TABLE "user" ADD CONSTRAINT "user_username_not_reserved" CHECK (lower("user"."username") not in ('404', 'admin', 'administrator', 'ads', 'api', 'assets', 'campusbuysell', 'cart', 'chat-photos', 'checkout', 'create', 'deals', 'dev', 'duke', 'events', 'favicon.svg', 'forgotpassword', 'fsu', 'generic', 'harvard', 'healthz', 'help', 'home', 'icons', 'login', 'logos', 'logout', 'manifest.webmanifest', 'media', 'media-files', 'mentions', 'messages', 'mit', 'mod', 'moderator', 'modlog', 'notifications', 'official', 'offline.html', 'okstate', 'ou', 'post', 'profile', 'register', 'reset-password', 'robots.txt', 'root', 'saved', 'search', 'search_schools', 'security', 'settings', 'smu', 'staff', 'stanford', 'support', 'sw.js', 'system', 'tamu', 'team', 'trade', 'ucf', 'ucla', 'uf', 'unt', 'user_registration', 'ut', 'verify', 'webhooks', 'www'));