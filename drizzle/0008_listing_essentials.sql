CREATE TABLE "listing_watches" (
	"post_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"campus_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "listing_watches_post_id_user_id_pk" PRIMARY KEY("post_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "price_cents" integer;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "price_terms" text;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "condition" text;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "listing_kind" text DEFAULT 'selling' NOT NULL;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "listing_status" text DEFAULT 'available' NOT NULL;--> statement-breakpoint
ALTER TABLE "listing_watches" ADD CONSTRAINT "listing_watches_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listing_watches" ADD CONSTRAINT "listing_watches_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listing_watches" ADD CONSTRAINT "listing_watches_campus_id_campuses_id_fk" FOREIGN KEY ("campus_id") REFERENCES "public"."campuses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "listing_watches_user_idx" ON "listing_watches" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "posts_feed_unsold_idx" ON "posts" USING btree ("campus_id","last_modified" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "posts"."parent_id" is null and "posts"."listing_status" <> 'sold';--> statement-breakpoint
CREATE INDEX "posts_feed_unsold_category_idx" ON "posts" USING btree ("campus_id","category","last_modified" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "posts"."parent_id" is null and "posts"."category" is not null and "posts"."listing_status" <> 'sold';--> statement-breakpoint
CREATE INDEX "posts_feed_free_idx" ON "posts" USING btree ("campus_id","last_modified" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "posts"."parent_id" is null and "posts"."price_cents" = 0;--> statement-breakpoint
CREATE INDEX "posts_feed_free_category_idx" ON "posts" USING btree ("campus_id","category","last_modified" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "posts"."parent_id" is null and "posts"."category" is not null and "posts"."price_cents" = 0;--> statement-breakpoint
CREATE INDEX "posts_media_unsold_idx" ON "posts" USING btree ("campus_id","last_modified" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "posts"."parent_id" is null and "posts"."img_count" > 0 and "posts"."listing_status" <> 'sold';--> statement-breakpoint
ALTER TABLE "posts" ADD CONSTRAINT "posts_price_cents_range" CHECK ("posts"."price_cents" is null or ("posts"."price_cents" >= 0 and "posts"."price_cents" <= 10000000));--> statement-breakpoint
ALTER TABLE "posts" ADD CONSTRAINT "posts_listing_values" CHECK ("posts"."listing_kind" in ('selling', 'wanted') and "posts"."listing_status" in ('available', 'reserved', 'sold')
        and ("posts"."price_terms" is null or "posts"."price_terms" in ('firm', 'offers'))
        and ("posts"."condition" is null or "posts"."condition" in ('new', 'like_new', 'good', 'fair', 'for_parts')));