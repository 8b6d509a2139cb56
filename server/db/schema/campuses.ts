import { boolean, integer, pgTable, real, text, timestamp } from "drizzle-orm/pg-core";

/** One row per community (spec 1 §3 Campus); `id` is the host slug ('ou', 'ut', … 'www' for the generic one). */
export const campuses = pgTable("campuses", {
  id: text("id").primaryKey(),
  code: text("code").notNull(),
  name: text("name").notNull(),
  school: text("school"),
  city: text("city"),
  state: text("state"),
  country: text("country").notNull().default("US"),
  /** School e-mail domains; an address on one of them or a subdomain is a school e-mail. */
  domains: text("domains").array().notNull().default([]),
  generic: boolean("generic").notNull().default(false),
  isDefault: boolean("is_default").notNull().default(false),
  /** Written from PUBLIC_CAMPUSES at every start (decision 0135); private unless opened. */
  privacy: text("privacy", { enum: ["public", "private"] })
    .notNull()
    .default("private"),
  logo: text("logo"),
  /** Feed page size: 15, or 25 for campuses configured so (spec 2 §9). */
  feedPageSize: integer("feed_page_size").notNull().default(15),
  /** Decision 0542: the reports' weight that hides a post or comment before review (with 2 reporters or more). */
  reportHideThreshold: real("report_hide_threshold").notNull().default(3),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});
