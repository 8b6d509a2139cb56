CREATE TABLE "notification_settings" (
	"user_id" text PRIMARY KEY NOT NULL,
	"email_comments" boolean DEFAULT true NOT NULL,
	"email_saves" boolean DEFAULT true NOT NULL,
	"email_messages" boolean DEFAULT true NOT NULL,
	"seen_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"campus_id" text NOT NULL,
	"user_id" text NOT NULL,
	"actor_id" text NOT NULL,
	"type" text NOT NULL,
	"post_id" uuid,
	"comment_id" uuid,
	"chat_id" uuid,
	"message_id" uuid,
	"read" boolean DEFAULT false NOT NULL,
	"emailed_at" timestamp with time zone,
	"push_pending" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "push_subscriptions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"endpoint" text NOT NULL,
	"p256dh" text NOT NULL,
	"auth" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "user" DROP CONSTRAINT "user_username_not_reserved";--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "user_id" text;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "headers" jsonb;--> statement-breakpoint
ALTER TABLE "notification_settings" ADD CONSTRAINT "notification_settings_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_campus_id_campuses_id_fk" FOREIGN KEY ("campus_id") REFERENCES "public"."campuses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_actor_id_user_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_comment_id_posts_id_fk" FOREIGN KEY ("comment_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_chat_id_chats_id_fk" FOREIGN KEY ("chat_id") REFERENCES "public"."chats"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_message_id_chat_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."chat_messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "push_subscriptions" ADD CONSTRAINT "push_subscriptions_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notifications_user_idx" ON "notifications" USING btree ("user_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "notifications_unread_idx" ON "notifications" USING btree ("user_id","created_at") WHERE "notifications"."read" = false;--> statement-breakpoint
CREATE INDEX "notifications_unmailed_idx" ON "notifications" USING btree ("user_id","created_at") WHERE "notifications"."emailed_at" is null;--> statement-breakpoint
CREATE INDEX "notifications_push_idx" ON "notifications" USING btree ("created_at") WHERE "notifications"."push_pending";--> statement-breakpoint
CREATE INDEX "notifications_post_idx" ON "notifications" USING btree ("post_id");--> statement-breakpoint
CREATE INDEX "notifications_comment_idx" ON "notifications" USING btree ("comment_id");--> statement-breakpoint
CREATE UNIQUE INDEX "push_subscriptions_endpoint_unique" ON "push_subscriptions" USING btree ("endpoint");--> statement-breakpoint
CREATE INDEX "push_subscriptions_user_idx" ON "push_subscriptions" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "mail_outbox_pending_notification_unique" ON "mail_outbox" USING btree ("user_id","kind") WHERE "mail_outbox"."status" = 'pending' and "mail_outbox"."user_id" is not null;--> statement-breakpoint
-- Decision 0253 (the rule of 0005_reserved_usernames.sql, decision 0125): /icons now serves the
-- app's icons, so the accounts already named 'icons' (in any case) move to the next free name,
-- icons-2, icons-3 …, oldest account first, before the CHECK below is added. (The other new
-- names hold a dot, which no username may.) In one statement: the n-th holder takes the n-th
-- name nobody holds, and the first (held + holders) numbers hold enough of those. Hand-written part.
WITH "holders" AS (
  SELECT "id", row_number() OVER (ORDER BY "created_at", "id") AS "nth"
  FROM "user" WHERE lower("username") = 'icons'
), "held" AS (
  SELECT lower("username") AS "name" FROM "user" WHERE lower("username") LIKE 'icons-%'
), "free" AS (
  SELECT 'icons-' || "n" AS "name", row_number() OVER (ORDER BY "n") AS "nth"
  FROM generate_series(2, 1 + (SELECT count(*) FROM "held") + (SELECT count(*) FROM "holders")) AS "n"
  WHERE 'icons-' || "n" NOT IN (SELECT "name" FROM "held")
)
UPDATE "user" SET "username" = "free"."name", "updated_at" = now()
FROM "holders" JOIN "free" USING ("nth")
WHERE "user"."id" = "holders"."id";--> statement-breakpoint
ALTER TABLE "user" ADD CONSTRAINT "user_username_not_reserved" CHECK (lower("user"."username") not in ('404', 'admin', 'administrator', 'ads', 'api', 'assets', 'campusbuysell', 'cart', 'checkout', 'create', 'dev', 'duke', 'favicon.svg', 'forgotpassword', 'fsu', 'generic', 'harvard', 'healthz', 'help', 'home', 'icons', 'login', 'logos', 'logout', 'manifest.webmanifest', 'media', 'media-files', 'mentions', 'messages', 'mit', 'mod', 'moderator', 'notifications', 'official', 'offline.html', 'okstate', 'ou', 'post', 'profile', 'register', 'reset-password', 'robots.txt', 'root', 'saved', 'search', 'search_schools', 'security', 'settings', 'smu', 'staff', 'stanford', 'support', 'sw.js', 'system', 'tamu', 'team', 'ucf', 'ucla', 'uf', 'unt', 'user_registration', 'ut', 'verify', 'www'));