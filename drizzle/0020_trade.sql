CREATE TABLE "deals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"campus_id" text NOT NULL,
	"post_id" uuid NOT NULL,
	"chat_id" uuid,
	"seller_id" text NOT NULL,
	"buyer_id" text NOT NULL,
	"offer_id" uuid,
	"amount_cents" integer,
	"state" text DEFAULT 'active' NOT NULL,
	"cancelled_by" text,
	"cancel_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"reviews_settled_at" timestamp with time zone,
	CONSTRAINT "deals_values" CHECK ("deals"."state" in ('active', 'completed', 'cancelled')
        and ("deals"."amount_cents" is null or ("deals"."amount_cents" > 0 and "deals"."amount_cents" <= 10000000))
        and ("deals"."cancel_reason" is null or char_length("deals"."cancel_reason") <= 500)
        and "deals"."seller_id" <> "deals"."buyer_id")
);
--> statement-breakpoint
CREATE TABLE "meetup_spots" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"campus_id" text NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"address" text NOT NULL,
	"hours" text DEFAULT '' NOT NULL,
	"rules" text DEFAULT '' NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"archived_at" timestamp with time zone,
	CONSTRAINT "meetup_spots_values" CHECK ("meetup_spots"."kind" in ('police', 'library', 'union', 'other')
        and char_length("meetup_spots"."name") between 1 and 100
        and char_length("meetup_spots"."address") between 1 and 200
        and char_length("meetup_spots"."hours") <= 200
        and char_length("meetup_spots"."rules") <= 500)
);
--> statement-breakpoint
CREATE TABLE "meetups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"campus_id" text NOT NULL,
	"chat_id" uuid NOT NULL,
	"post_id" uuid,
	"deal_id" uuid,
	"spot_id" uuid NOT NULL,
	"proposed_by" text NOT NULL,
	"proposed_to" text NOT NULL,
	"meets_at" timestamp with time zone NOT NULL,
	"state" text DEFAULT 'proposed' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	"reminder_sent_at" timestamp with time zone,
	CONSTRAINT "meetups_state" CHECK ("meetups"."state" in ('proposed', 'accepted', 'replaced', 'cancelled'))
);
--> statement-breakpoint
CREATE TABLE "offers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"campus_id" text NOT NULL,
	"post_id" uuid NOT NULL,
	"chat_id" uuid NOT NULL,
	"seller_id" text NOT NULL,
	"buyer_id" text NOT NULL,
	"from_user_id" text NOT NULL,
	"to_user_id" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"note" text,
	"state" text DEFAULT 'pending' NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"replaces_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"decided_at" timestamp with time zone,
	"reminder_sent_at" timestamp with time zone,
	"expiry_notice_sent_at" timestamp with time zone,
	CONSTRAINT "offers_values" CHECK ("offers"."amount_cents" > 0 and "offers"."amount_cents" <= 10000000
        and "offers"."state" in ('pending', 'countered', 'accepted', 'declined', 'withdrawn', 'expired', 'closed')
        and ("offers"."note" is null or char_length("offers"."note") <= 500))
);
--> statement-breakpoint
CREATE TABLE "reputations" (
	"user_id" text PRIMARY KEY NOT NULL,
	"review_count" integer DEFAULT 0 NOT NULL,
	"rating" real,
	"trades_completed" integer DEFAULT 0 NOT NULL,
	"reply_seconds" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reviews" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"campus_id" text NOT NULL,
	"deal_id" uuid NOT NULL,
	"author_id" text NOT NULL,
	"subject_id" text NOT NULL,
	"subject_role" text NOT NULL,
	"stars" integer NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"public_text" text DEFAULT '' NOT NULL,
	"private_note" text,
	"reply" text,
	"replied_at" timestamp with time zone,
	"moderation_state" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"publishes_at" timestamp with time zone NOT NULL,
	CONSTRAINT "reviews_values" CHECK ("reviews"."stars" between 1 and 5
        and "reviews"."subject_role" in ('seller', 'buyer')
        and cardinality("reviews"."tags") <= 3
        and char_length("reviews"."public_text") <= 500
        and ("reviews"."private_note" is null or char_length("reviews"."private_note") <= 500)
        and ("reviews"."reply" is null or char_length("reviews"."reply") <= 500)
        and "reviews"."author_id" <> "reviews"."subject_id")
);
--> statement-breakpoint
ALTER TABLE "reports" DROP CONSTRAINT "reports_values";--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "offer_id" uuid;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "meetup_id" uuid;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "system_event" text;--> statement-breakpoint
ALTER TABLE "chats" ADD COLUMN "post_id" uuid;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "offer_id" uuid;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "deal_id" uuid;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "meetup_id" uuid;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "review_id" uuid;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "event" text;--> statement-breakpoint
ALTER TABLE "deals" ADD CONSTRAINT "deals_campus_id_campuses_id_fk" FOREIGN KEY ("campus_id") REFERENCES "public"."campuses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deals" ADD CONSTRAINT "deals_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deals" ADD CONSTRAINT "deals_chat_id_chats_id_fk" FOREIGN KEY ("chat_id") REFERENCES "public"."chats"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deals" ADD CONSTRAINT "deals_seller_id_user_id_fk" FOREIGN KEY ("seller_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deals" ADD CONSTRAINT "deals_buyer_id_user_id_fk" FOREIGN KEY ("buyer_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deals" ADD CONSTRAINT "deals_offer_id_offers_id_fk" FOREIGN KEY ("offer_id") REFERENCES "public"."offers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deals" ADD CONSTRAINT "deals_cancelled_by_user_id_fk" FOREIGN KEY ("cancelled_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meetup_spots" ADD CONSTRAINT "meetup_spots_campus_id_campuses_id_fk" FOREIGN KEY ("campus_id") REFERENCES "public"."campuses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meetups" ADD CONSTRAINT "meetups_campus_id_campuses_id_fk" FOREIGN KEY ("campus_id") REFERENCES "public"."campuses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meetups" ADD CONSTRAINT "meetups_chat_id_chats_id_fk" FOREIGN KEY ("chat_id") REFERENCES "public"."chats"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meetups" ADD CONSTRAINT "meetups_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meetups" ADD CONSTRAINT "meetups_deal_id_deals_id_fk" FOREIGN KEY ("deal_id") REFERENCES "public"."deals"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meetups" ADD CONSTRAINT "meetups_spot_id_meetup_spots_id_fk" FOREIGN KEY ("spot_id") REFERENCES "public"."meetup_spots"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meetups" ADD CONSTRAINT "meetups_proposed_by_user_id_fk" FOREIGN KEY ("proposed_by") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meetups" ADD CONSTRAINT "meetups_proposed_to_user_id_fk" FOREIGN KEY ("proposed_to") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offers" ADD CONSTRAINT "offers_campus_id_campuses_id_fk" FOREIGN KEY ("campus_id") REFERENCES "public"."campuses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offers" ADD CONSTRAINT "offers_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offers" ADD CONSTRAINT "offers_chat_id_chats_id_fk" FOREIGN KEY ("chat_id") REFERENCES "public"."chats"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offers" ADD CONSTRAINT "offers_seller_id_user_id_fk" FOREIGN KEY ("seller_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offers" ADD CONSTRAINT "offers_buyer_id_user_id_fk" FOREIGN KEY ("buyer_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offers" ADD CONSTRAINT "offers_from_user_id_user_id_fk" FOREIGN KEY ("from_user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offers" ADD CONSTRAINT "offers_to_user_id_user_id_fk" FOREIGN KEY ("to_user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offers" ADD CONSTRAINT "offers_replaces_id_offers_id_fk" FOREIGN KEY ("replaces_id") REFERENCES "public"."offers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reputations" ADD CONSTRAINT "reputations_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_campus_id_campuses_id_fk" FOREIGN KEY ("campus_id") REFERENCES "public"."campuses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_deal_id_deals_id_fk" FOREIGN KEY ("deal_id") REFERENCES "public"."deals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_author_id_user_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_subject_id_user_id_fk" FOREIGN KEY ("subject_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "deals_one_active_unique" ON "deals" USING btree ("post_id") WHERE "deals"."state" = 'active';--> statement-breakpoint
CREATE INDEX "deals_post_idx" ON "deals" USING btree ("post_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "deals_seller_idx" ON "deals" USING btree ("seller_id","state","completed_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "deals_buyer_idx" ON "deals" USING btree ("buyer_id","state","completed_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "deals_chat_idx" ON "deals" USING btree ("chat_id");--> statement-breakpoint
CREATE INDEX "deals_completed_idx" ON "deals" USING btree ("campus_id","completed_at") WHERE "deals"."state" = 'completed';--> statement-breakpoint
CREATE INDEX "deals_unsettled_idx" ON "deals" USING btree ("completed_at") WHERE "deals"."state" = 'completed' and "deals"."reviews_settled_at" is null;--> statement-breakpoint
CREATE INDEX "meetup_spots_campus_idx" ON "meetup_spots" USING btree ("campus_id","position") WHERE "meetup_spots"."archived_at" is null;--> statement-breakpoint
CREATE INDEX "meetups_chat_idx" ON "meetups" USING btree ("chat_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "meetups_deal_idx" ON "meetups" USING btree ("deal_id");--> statement-breakpoint
CREATE INDEX "meetups_upcoming_idx" ON "meetups" USING btree ("meets_at") WHERE "meetups"."state" = 'accepted' and "meetups"."reminder_sent_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "offers_one_pending_unique" ON "offers" USING btree ("post_id","buyer_id") WHERE "offers"."state" = 'pending';--> statement-breakpoint
CREATE INDEX "offers_post_idx" ON "offers" USING btree ("post_id","state");--> statement-breakpoint
CREATE INDEX "offers_buyer_post_created_idx" ON "offers" USING btree ("buyer_id","post_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "offers_chat_idx" ON "offers" USING btree ("chat_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "offers_pending_expiry_idx" ON "offers" USING btree ("expires_at") WHERE "offers"."state" = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "reviews_deal_author_unique" ON "reviews" USING btree ("deal_id","author_id");--> statement-breakpoint
CREATE INDEX "reviews_subject_idx" ON "reviews" USING btree ("subject_id","publishes_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "reviews_author_idx" ON "reviews" USING btree ("author_id");--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_offer_id_offers_id_fk" FOREIGN KEY ("offer_id") REFERENCES "public"."offers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_deal_id_deals_id_fk" FOREIGN KEY ("deal_id") REFERENCES "public"."deals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_meetup_id_meetups_id_fk" FOREIGN KEY ("meetup_id") REFERENCES "public"."meetups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_review_id_reviews_id_fk" FOREIGN KEY ("review_id") REFERENCES "public"."reviews"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chats_from_user_idx" ON "chats" USING btree ("from_user_id");--> statement-breakpoint
CREATE INDEX "chats_to_user_idx" ON "chats" USING btree ("to_user_id");--> statement-breakpoint
CREATE INDEX "mail_outbox_user_idx" ON "mail_outbox" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "notifications_actor_idx" ON "notifications" USING btree ("actor_id");--> statement-breakpoint
CREATE INDEX "notifications_offer_idx" ON "notifications" USING btree ("offer_id") WHERE "notifications"."offer_id" is not null;--> statement-breakpoint
CREATE INDEX "notifications_deal_idx" ON "notifications" USING btree ("deal_id") WHERE "notifications"."deal_id" is not null;--> statement-breakpoint
CREATE INDEX "notifications_meetup_idx" ON "notifications" USING btree ("meetup_id") WHERE "notifications"."meetup_id" is not null;--> statement-breakpoint
CREATE INDEX "notifications_review_idx" ON "notifications" USING btree ("review_id") WHERE "notifications"."review_id" is not null;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_values" CHECK ("reports"."target_kind" in ('post', 'comment', 'message', 'user', 'review')
        and "reports"."reason" in ('scam', 'prohibited', 'harassment', 'spam', 'inappropriate', 'other')
        and ("reports"."outcome" is null or "reports"."outcome" in ('upheld', 'dismissed'))
        and ("reports"."comment" is null or char_length("reports"."comment") <= 1000));