CREATE TABLE "price_drops" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"campus_id" text NOT NULL,
	"post_id" uuid NOT NULL,
	"from_cents" integer NOT NULL,
	"to_cents" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "price_drops_down" CHECK ("price_drops"."to_cents" >= 0 and "price_drops"."to_cents" < "price_drops"."from_cents")
);
--> statement-breakpoint
CREATE TABLE "saved_search_hits" (
	"saved_search_id" uuid NOT NULL,
	"post_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"campus_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"notified_at" timestamp with time zone,
	"emailed_at" timestamp with time zone,
	CONSTRAINT "saved_search_hits_saved_search_id_post_id_pk" PRIMARY KEY("saved_search_id","post_id")
);
--> statement-breakpoint
CREATE TABLE "saved_search_match_queue" (
	"post_id" uuid PRIMARY KEY NOT NULL,
	"campus_id" text NOT NULL,
	"after_id" uuid,
	"enqueued_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "saved_searches" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"campus_id" text NOT NULL,
	"user_id" text NOT NULL,
	"name" text NOT NULL,
	"query" text NOT NULL,
	"query_key" text NOT NULL,
	"rare_word" text,
	"category" text,
	"min_price_cents" integer,
	"max_price_cents" integer,
	"cadence" text DEFAULT 'instant' NOT NULL,
	"unsubscribe_token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"opened_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_instant_mail_at" timestamp with time zone,
	CONSTRAINT "saved_searches_values" CHECK ("saved_searches"."cadence" in ('instant', 'daily', 'off')
        and char_length("saved_searches"."name") between 1 and 100
        and char_length("saved_searches"."query") <= 500)
);
--> statement-breakpoint
ALTER TABLE "notification_settings" ADD COLUMN "email_price_drops" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "saved_search_id" uuid;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "price_drop_id" uuid;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "edited_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "price_drops" ADD CONSTRAINT "price_drops_campus_id_campuses_id_fk" FOREIGN KEY ("campus_id") REFERENCES "public"."campuses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "price_drops" ADD CONSTRAINT "price_drops_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_search_hits" ADD CONSTRAINT "saved_search_hits_saved_search_id_saved_searches_id_fk" FOREIGN KEY ("saved_search_id") REFERENCES "public"."saved_searches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_search_hits" ADD CONSTRAINT "saved_search_hits_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_search_hits" ADD CONSTRAINT "saved_search_hits_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_search_hits" ADD CONSTRAINT "saved_search_hits_campus_id_campuses_id_fk" FOREIGN KEY ("campus_id") REFERENCES "public"."campuses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_search_match_queue" ADD CONSTRAINT "saved_search_match_queue_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_search_match_queue" ADD CONSTRAINT "saved_search_match_queue_campus_id_campuses_id_fk" FOREIGN KEY ("campus_id") REFERENCES "public"."campuses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_searches" ADD CONSTRAINT "saved_searches_campus_id_campuses_id_fk" FOREIGN KEY ("campus_id") REFERENCES "public"."campuses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_searches" ADD CONSTRAINT "saved_searches_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "price_drops_post_idx" ON "price_drops" USING btree ("post_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "saved_search_hits_post_idx" ON "saved_search_hits" USING btree ("post_id");--> statement-breakpoint
CREATE INDEX "saved_search_hits_digest_idx" ON "saved_search_hits" USING btree ("user_id","created_at") WHERE "saved_search_hits"."emailed_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "saved_searches_user_query_unique" ON "saved_searches" USING btree ("user_id","query_key");--> statement-breakpoint
CREATE INDEX "saved_searches_user_idx" ON "saved_searches" USING btree ("user_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "saved_searches_rare_word_idx" ON "saved_searches" USING btree ("campus_id","rare_word") WHERE "saved_searches"."cadence" <> 'off' and "saved_searches"."rare_word" is not null;--> statement-breakpoint
CREATE INDEX "saved_searches_wordless_idx" ON "saved_searches" USING btree ("campus_id","category") WHERE "saved_searches"."cadence" <> 'off' and "saved_searches"."rare_word" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "saved_searches_token_unique" ON "saved_searches" USING btree ("unsubscribe_token_hash");--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_saved_search_id_saved_searches_id_fk" FOREIGN KEY ("saved_search_id") REFERENCES "public"."saved_searches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_price_drop_id_price_drops_id_fk" FOREIGN KEY ("price_drop_id") REFERENCES "public"."price_drops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notifications_saved_search_idx" ON "notifications" USING btree ("saved_search_id") WHERE "notifications"."saved_search_id" is not null;--> statement-breakpoint
CREATE INDEX "notifications_price_drop_idx" ON "notifications" USING btree ("price_drop_id") WHERE "notifications"."price_drop_id" is not null;