ALTER TABLE "user" DROP CONSTRAINT "user_username_not_reserved";--> statement-breakpoint
-- Issue 27, decision 0445 (the rule of decisions 0125 and 0300): /events is the live-event stream and
-- /webhooks the payment webhook, and /chat-photos serves chat photos (decision 0463), so the accounts
-- already named 'events', 'webhooks' or 'chat-photos' (in any case) move to the next free name,
-- events-2, events-3 …, oldest account first, before the CHECK below is
-- added. 0011's statement, for a list of names: per name, the n-th holder takes the n-th name nobody
-- holds. Hand-written part.
WITH "newly" AS (
  SELECT unnest(ARRAY['events', 'webhooks', 'chat-photos']) AS "base"
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
ALTER TABLE "user" ADD CONSTRAINT "user_username_not_reserved" CHECK (lower("user"."username") not in ('404', 'admin', 'administrator', 'ads', 'api', 'assets', 'campusbuysell', 'cart', 'chat-photos', 'checkout', 'create', 'dev', 'duke', 'events', 'favicon.svg', 'forgotpassword', 'fsu', 'generic', 'harvard', 'healthz', 'help', 'home', 'icons', 'login', 'logos', 'logout', 'manifest.webmanifest', 'media', 'media-files', 'mentions', 'messages', 'mit', 'mod', 'moderator', 'notifications', 'official', 'offline.html', 'okstate', 'ou', 'post', 'profile', 'register', 'reset-password', 'robots.txt', 'root', 'saved', 'search', 'search_schools', 'security', 'settings', 'smu', 'staff', 'stanford', 'support', 'sw.js', 'system', 'tamu', 'team', 'ucf', 'ucla', 'uf', 'unt', 'user_registration', 'ut', 'verify', 'webhooks', 'www'));