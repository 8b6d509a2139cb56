-- Issue 9 §3, decision 0125: accounts that already hold a reserved username move to the next free
-- name, base-2, base-3 … (as sign-up picks one, server/accounts/accounts.ts findFreeUsername), so
-- the CHECK constraint below can be added. Hand-written part; the constraint is drizzle-kit's.
DO $$
DECLARE
  holder record;
  suffix integer;
  candidate text;
BEGIN
  FOR holder IN
    SELECT "id", lower("username") AS base FROM "user"
    WHERE lower("username") IN ('404', 'admin', 'administrator', 'ads', 'api', 'assets', 'campusbuysell', 'cart', 'checkout', 'create', 'dev', 'duke', 'favicon.svg', 'forgotpassword', 'fsu', 'generic', 'harvard', 'healthz', 'help', 'home', 'login', 'logos', 'logout', 'media', 'media-files', 'mentions', 'messages', 'mit', 'mod', 'moderator', 'notifications', 'official', 'okstate', 'ou', 'post', 'profile', 'register', 'reset-password', 'robots.txt', 'root', 'saved', 'search', 'search_schools', 'security', 'settings', 'smu', 'staff', 'stanford', 'support', 'system', 'tamu', 'team', 'ucf', 'ucla', 'uf', 'unt', 'user_registration', 'ut', 'verify', 'www')
    ORDER BY "created_at", "id"
  LOOP
    suffix := 2;
    LOOP
      candidate := holder.base || '-' || suffix;
      EXIT WHEN NOT EXISTS (SELECT 1 FROM "user" WHERE lower("username") = candidate);
      suffix := suffix + 1;
    END LOOP;
    UPDATE "user" SET "username" = candidate, "updated_at" = now() WHERE "id" = holder."id";
  END LOOP;
END $$;--> statement-breakpoint
ALTER TABLE "user" ADD CONSTRAINT "user_username_not_reserved" CHECK (lower("user"."username") not in ('404', 'admin', 'administrator', 'ads', 'api', 'assets', 'campusbuysell', 'cart', 'checkout', 'create', 'dev', 'duke', 'favicon.svg', 'forgotpassword', 'fsu', 'generic', 'harvard', 'healthz', 'help', 'home', 'login', 'logos', 'logout', 'media', 'media-files', 'mentions', 'messages', 'mit', 'mod', 'moderator', 'notifications', 'official', 'okstate', 'ou', 'post', 'profile', 'register', 'reset-password', 'robots.txt', 'root', 'saved', 'search', 'search_schools', 'security', 'settings', 'smu', 'staff', 'stanford', 'support', 'system', 'tamu', 'team', 'ucf', 'ucla', 'uf', 'unt', 'user_registration', 'ut', 'verify', 'www'));
