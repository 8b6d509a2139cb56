-- Decisions 0540-0545: reports of posts, comments, chat messages and members grouped into moderation
-- items; reporters' records; strikes, appeals, suspensions and banned addresses; hidden and removed
-- content.
CREATE TABLE "reporter_records" (
	"user_id" text PRIMARY KEY NOT NULL,
	"upheld" integer DEFAULT 0 NOT NULL,
	"dismissed" integer DEFAULT 0 NOT NULL,
	"muted" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "appeals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"campus_id" text NOT NULL,
	"strike_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"text" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"decided_by" text,
	"decided_at" timestamp with time zone,
	"decision_reason" text,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "appeals_text_length" CHECK (char_length("appeals"."text") between 30 and 2000)
);
--> statement-breakpoint
CREATE TABLE "banned_emails" (
	"email" text PRIMARY KEY NOT NULL,
	"user_id" text,
	"campus_id" text,
	"reason" text,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "moderation_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"campus_id" text NOT NULL,
	"target_kind" text NOT NULL,
	"target_id" text NOT NULL,
	"target_user_id" text,
	"state" text DEFAULT 'open' NOT NULL,
	"to_admins" boolean DEFAULT false NOT NULL,
	"weight" real DEFAULT 0 NOT NULL,
	"reporters" integer DEFAULT 0 NOT NULL,
	"hidden" boolean DEFAULT false NOT NULL,
	"dismissed_once" boolean DEFAULT false NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"opened_at" timestamp with time zone NOT NULL,
	"decided_by" text,
	"decided_at" timestamp with time zone,
	"decision" text,
	CONSTRAINT "moderation_items_state" CHECK ("moderation_items"."state" in ('open', 'decided'))
);
--> statement-breakpoint
CREATE TABLE "strikes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"campus_id" text NOT NULL,
	"user_id" text NOT NULL,
	"item_id" uuid,
	"action" text NOT NULL,
	"target_kind" text NOT NULL,
	"target_id" text NOT NULL,
	"reason_code" text NOT NULL,
	"public_reason" text NOT NULL,
	"suspended_until" timestamp with time zone,
	"actor_id" text,
	"created_at" timestamp with time zone NOT NULL,
	"overruled_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "user" ADD COLUMN "suspended_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "campuses" ADD COLUMN "report_hide_threshold" real DEFAULT 3 NOT NULL;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "moderation_state" text;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "moderation_state" text;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "moderation_log_id" uuid;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_moderation_log_id_moderation_log_id_fk" FOREIGN KEY ("moderation_log_id") REFERENCES "public"."moderation_log"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "target_kind" text;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "target_id" text;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "item_id" uuid;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "comment" text;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "weight" real DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "outcome" text;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "snapshot" jsonb;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
-- Decision 0540: the reports written before this release were all of members (spec 1 §2's profile
-- 'Report'): each becomes a report of kind 'user' whose reason is 'other' (the old free text, if any,
-- is kept as its comment), and each reported member gets one open moderation item. Hand-written part.
UPDATE "reports" SET "target_kind" = 'user', "target_id" = "reported_user_id",
  "comment" = left(nullif("reason", ''), 1000), "reason" = 'other', "updated_at" = "created_at";--> statement-breakpoint
DELETE FROM "reports" WHERE "target_id" IS NULL;--> statement-breakpoint
DELETE FROM "reports" AS "later" USING "reports" AS "first"
WHERE "later"."reporter_id" = "first"."reporter_id" AND "later"."target_id" = "first"."target_id"
  AND ("later"."created_at", "later"."id") > ("first"."created_at", "first"."id");--> statement-breakpoint
INSERT INTO "moderation_items" ("campus_id", "target_kind", "target_id", "target_user_id", "weight", "reporters", "opened_at")
SELECT (array_agg("campus_id" ORDER BY "created_at"))[1], 'user', "reported_user_id", "reported_user_id",
  count(*), count(DISTINCT "reporter_id"), min("created_at")
FROM "reports" GROUP BY "reported_user_id";--> statement-breakpoint
UPDATE "reports" SET "item_id" = "moderation_items"."id" FROM "moderation_items"
WHERE "moderation_items"."target_kind" = 'user' AND "moderation_items"."target_id" = "reports"."target_id";--> statement-breakpoint
ALTER TABLE "reports" ALTER COLUMN "reason" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "reports" ALTER COLUMN "target_kind" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "reports" ALTER COLUMN "target_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "reports" ALTER COLUMN "item_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "reporter_records" ADD CONSTRAINT "reporter_records_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appeals" ADD CONSTRAINT "appeals_campus_id_campuses_id_fk" FOREIGN KEY ("campus_id") REFERENCES "public"."campuses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appeals" ADD CONSTRAINT "appeals_strike_id_strikes_id_fk" FOREIGN KEY ("strike_id") REFERENCES "public"."strikes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appeals" ADD CONSTRAINT "appeals_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appeals" ADD CONSTRAINT "appeals_decided_by_user_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "banned_emails" ADD CONSTRAINT "banned_emails_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "banned_emails" ADD CONSTRAINT "banned_emails_campus_id_campuses_id_fk" FOREIGN KEY ("campus_id") REFERENCES "public"."campuses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "moderation_items" ADD CONSTRAINT "moderation_items_campus_id_campuses_id_fk" FOREIGN KEY ("campus_id") REFERENCES "public"."campuses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "moderation_items" ADD CONSTRAINT "moderation_items_target_user_id_user_id_fk" FOREIGN KEY ("target_user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "moderation_items" ADD CONSTRAINT "moderation_items_decided_by_user_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "strikes" ADD CONSTRAINT "strikes_campus_id_campuses_id_fk" FOREIGN KEY ("campus_id") REFERENCES "public"."campuses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "strikes" ADD CONSTRAINT "strikes_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "strikes" ADD CONSTRAINT "strikes_item_id_moderation_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."moderation_items"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "strikes" ADD CONSTRAINT "strikes_actor_id_user_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "appeals_strike_unique" ON "appeals" USING btree ("strike_id");--> statement-breakpoint
CREATE UNIQUE INDEX "moderation_items_target_unique" ON "moderation_items" USING btree ("target_kind","target_id");--> statement-breakpoint
CREATE INDEX "moderation_items_queue_idx" ON "moderation_items" USING btree ("campus_id","opened_at","id") WHERE "moderation_items"."state" = 'open';--> statement-breakpoint
CREATE INDEX "moderation_items_open_idx" ON "moderation_items" USING btree ("opened_at","id") WHERE "moderation_items"."state" = 'open';--> statement-breakpoint
CREATE INDEX "moderation_items_target_user_idx" ON "moderation_items" USING btree ("target_user_id");--> statement-breakpoint
CREATE INDEX "strikes_user_created_idx" ON "strikes" USING btree ("user_id","created_at" DESC NULLS LAST);--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_item_id_moderation_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."moderation_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "reports_reporter_target_unique" ON "reports" USING btree ("reporter_id","target_kind","target_id");--> statement-breakpoint
CREATE INDEX "reports_reporter_created_idx" ON "reports" USING btree ("reporter_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "reports_item_idx" ON "reports" USING btree ("item_id");--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_values" CHECK ("reports"."target_kind" in ('post', 'comment', 'message', 'user')
        and "reports"."reason" in ('scam', 'prohibited', 'harassment', 'spam', 'inappropriate', 'other')
        and ("reports"."outcome" is null or "reports"."outcome" in ('upheld', 'dismissed'))
        and ("reports"."comment" is null or char_length("reports"."comment") <= 1000));