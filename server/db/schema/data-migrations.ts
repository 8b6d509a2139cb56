import { pgTable, text } from "drizzle-orm/pg-core";
import * as columns from "./columns";

/**
 * Data migrations written in TypeScript, run at start-up after the SQL migrations
 * (decision 0115): one row per migration that finished, so it runs once per database.
 */
export const dataMigrations = pgTable("data_migrations", {
  name: text("name").primaryKey(),
  finishedAt: columns.time("finished_at").notNull().defaultNow(),
});
