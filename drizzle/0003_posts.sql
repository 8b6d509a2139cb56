DROP INDEX "post_likes_user_idx";--> statement-breakpoint
ALTER TABLE "post_media" ADD COLUMN "thumb_path" text;--> statement-breakpoint
CREATE INDEX "post_likes_user_saved_idx" ON "post_likes" USING btree ("user_id","campus_id","created_at" DESC NULLS LAST,"post_id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "post_likes_post_idx" ON "post_likes" USING btree ("post_id","created_at" DESC NULLS LAST,"user_id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "posts_feed_category_idx" ON "posts" USING btree ("campus_id","category","last_modified" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "posts"."parent_id" is null and "posts"."category" is not null;--> statement-breakpoint
CREATE INDEX "posts_media_feed_idx" ON "posts" USING btree ("campus_id","last_modified" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "posts"."parent_id" is null and "posts"."img_count" > 0;--> statement-breakpoint
CREATE INDEX "posts_thread_idx" ON "posts" USING btree ("root_id","created_at","id") WHERE "posts"."root_id" is not null;--> statement-breakpoint
CREATE INDEX "posts_profile_posts_idx" ON "posts" USING btree ("author_id","campus_id","last_modified" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "posts"."parent_id" is null and "posts"."type" = 'post';--> statement-breakpoint
CREATE INDEX "posts_profile_photos_idx" ON "posts" USING btree ("author_id","campus_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "posts"."parent_id" is null and "posts"."img_count" > 0;--> statement-breakpoint
CREATE INDEX "posts_profile_replies_idx" ON "posts" USING btree ("author_id","campus_id","last_modified" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "posts"."parent_id" is not null;