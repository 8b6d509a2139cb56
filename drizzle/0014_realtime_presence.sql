CREATE TABLE "realtime_presence" (
	"user_id" text NOT NULL,
	"process_id" uuid NOT NULL,
	CONSTRAINT "realtime_presence_user_id_process_id_pk" PRIMARY KEY("user_id","process_id")
);
--> statement-breakpoint
CREATE TABLE "realtime_processes" (
	"id" uuid PRIMARY KEY NOT NULL,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "realtime_presence" ADD CONSTRAINT "realtime_presence_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "realtime_presence" ADD CONSTRAINT "realtime_presence_process_id_realtime_processes_id_fk" FOREIGN KEY ("process_id") REFERENCES "public"."realtime_processes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "realtime_presence_process_idx" ON "realtime_presence" USING btree ("process_id");