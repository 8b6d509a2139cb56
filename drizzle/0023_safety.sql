CREATE TABLE "safety_rules" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"key" text NOT NULL,
	"scope" text NOT NULL,
	"action" text NOT NULL,
	"pattern" jsonb NOT NULL,
	"message" text NOT NULL,
	"counts_toward_flag" boolean DEFAULT false NOT NULL,
	"builtin" boolean DEFAULT false NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "safety_rules_values" CHECK ("safety_rules"."scope" in ('chat', 'listing', 'both') and "safety_rules"."action" in ('block', 'warn', 'nudge')
        and char_length("safety_rules"."key") between 1 and 60 and char_length("safety_rules"."message") between 1 and 500)
);
--> statement-breakpoint
DROP INDEX "chats_from_user_idx";--> statement-breakpoint
ALTER TABLE "user" ADD COLUMN "trust_level" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "user" ADD COLUMN "trust_locked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "user" ADD COLUMN "trust_locked_by" text;--> statement-breakpoint
ALTER TABLE "user" ADD COLUMN "conversations_limited_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "user" ADD COLUMN "message_policy" text DEFAULT 'anyone' NOT NULL;--> statement-breakpoint
ALTER TABLE "user" ADD COLUMN "school_verified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "user" ADD COLUMN "badge_reminder_sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "chat_members" ADD COLUMN "request_state" text;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "safety_rule_id" uuid;--> statement-breakpoint
ALTER TABLE "moderation_items" ADD COLUMN "auto_reason" text;--> statement-breakpoint
ALTER TABLE "safety_rules" ADD CONSTRAINT "safety_rules_created_by_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "safety_rules_key_unique" ON "safety_rules" USING btree ("key");--> statement-breakpoint
CREATE INDEX "safety_rules_enabled_idx" ON "safety_rules" USING btree ("scope") WHERE "safety_rules"."enabled";--> statement-breakpoint
CREATE INDEX "user_school_verified_at_idx" ON "user" USING btree ("school_verified_at") WHERE "user"."school_verified" and "user"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "chat_members_requests_idx" ON "chat_members" USING btree ("user_id","campus_id","last_modified" DESC NULLS LAST,"chat_id" DESC NULLS LAST) WHERE "chat_members"."request_state" = 'pending';--> statement-breakpoint
CREATE INDEX "chat_messages_sender_warned_idx" ON "chat_messages" USING btree ("sender_id","created_at" DESC NULLS LAST) WHERE "chat_messages"."safety_rule_id" is not null;--> statement-breakpoint
CREATE INDEX "chats_from_user_created_idx" ON "chats" USING btree ("from_user_id","created_at");--> statement-breakpoint
ALTER TABLE "user" ADD CONSTRAINT "user_trust_level_range" CHECK ("user"."trust_level" between 0 and 3);--> statement-breakpoint
ALTER TABLE "user" ADD CONSTRAINT "user_message_policy_values" CHECK ("user"."message_policy" in ('anyone', 'known'));--> statement-breakpoint
-- Decision 0650: students verified before the badge could lapse keep it 12 months from this release.
UPDATE "user" SET "school_verified_at" = now() WHERE "school_verified" AND "school_verified_at" IS NULL;
