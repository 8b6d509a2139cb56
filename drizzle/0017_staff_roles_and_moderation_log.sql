-- Decision 0520: staff roles as rows; decision 0521: the append-only moderation log; decision 0523:
-- the staff's count of waiting reports reads reports by campus.
CREATE TABLE "moderation_log" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"campus_id" text,
	"actor_id" text,
	"source" text NOT NULL,
	"actor_role" text,
	"action" text NOT NULL,
	"target_kind" text NOT NULL,
	"target_id" text NOT NULL,
	"target_user_id" text,
	"reason_code" text,
	"public_reason" text,
	"private_note" text,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "staff_roles" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"role" text NOT NULL,
	"campus_id" text,
	"source" text NOT NULL,
	"granted_by" text,
	"granted_at" timestamp with time zone NOT NULL,
	CONSTRAINT "staff_roles_user_campus_unique" UNIQUE NULLS NOT DISTINCT("user_id","campus_id"),
	CONSTRAINT "staff_roles_campus_matches_role" CHECK (("staff_roles"."role" = 'site_admin') = ("staff_roles"."campus_id" is null))
);
--> statement-breakpoint
ALTER TABLE "user" DROP CONSTRAINT "user_username_not_reserved";--> statement-breakpoint
ALTER TABLE "moderation_log" ADD CONSTRAINT "moderation_log_campus_id_campuses_id_fk" FOREIGN KEY ("campus_id") REFERENCES "public"."campuses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "moderation_log" ADD CONSTRAINT "moderation_log_actor_id_user_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "moderation_log" ADD CONSTRAINT "moderation_log_target_user_id_user_id_fk" FOREIGN KEY ("target_user_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_roles" ADD CONSTRAINT "staff_roles_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_roles" ADD CONSTRAINT "staff_roles_campus_id_campuses_id_fk" FOREIGN KEY ("campus_id") REFERENCES "public"."campuses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_roles" ADD CONSTRAINT "staff_roles_granted_by_user_id_fk" FOREIGN KEY ("granted_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "moderation_log_campus_created_idx" ON "moderation_log" USING btree ("campus_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "moderation_log_target_user_created_idx" ON "moderation_log" USING btree ("target_user_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "staff_roles_campus_idx" ON "staff_roles" USING btree ("campus_id");--> statement-breakpoint
CREATE INDEX "reports_campus_idx" ON "reports" USING btree ("campus_id");--> statement-breakpoint
-- Decision 0520 (the rule of decisions 0125, 0300 and 0445): /modlog is the campuses' public
-- moderation log, so the accounts already named 'modlog' (in any case) move to the next free name,
-- modlog-2, modlog-3 …, oldest account first, before the CHECK below is added. 0015's statement.
-- Hand-written part.
WITH "newly" AS (
  SELECT unnest(ARRAY['modlog']) AS "base"
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
ALTER TABLE "user" ADD CONSTRAINT "user_username_not_reserved" CHECK (lower("user"."username") not in ('404', 'admin', 'administrator', 'ads', 'api', 'assets', 'campusbuysell', 'cart', 'chat-photos', 'checkout', 'create', 'dev', 'duke', 'events', 'favicon.svg', 'forgotpassword', 'fsu', 'generic', 'harvard', 'healthz', 'help', 'home', 'icons', 'login', 'logos', 'logout', 'manifest.webmanifest', 'media', 'media-files', 'mentions', 'messages', 'mit', 'mod', 'moderator', 'modlog', 'notifications', 'official', 'offline.html', 'okstate', 'ou', 'post', 'profile', 'register', 'reset-password', 'robots.txt', 'root', 'saved', 'search', 'search_schools', 'security', 'settings', 'smu', 'staff', 'stanford', 'support', 'sw.js', 'system', 'tamu', 'team', 'ucf', 'ucla', 'uf', 'unt', 'user_registration', 'ut', 'verify', 'webhooks', 'www'));