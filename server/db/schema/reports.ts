import { index, pgTable, text } from "drizzle-orm/pg-core";
import { user } from "./auth";
import { campusIdColumn, createdAtColumn, idColumn, userIdColumn } from "./columns";

/** Reports of users (and later posts) for the moderation queue a later issue builds. */
export const reports = pgTable(
  "reports",
  {
    id: idColumn(),
    campusId: campusIdColumn(),
    reporterId: userIdColumn("reporter_id"),
    reportedUserId: text("reported_user_id").references(() => user.id, { onDelete: "cascade" }),
    reason: text("reason"),
    createdAt: createdAtColumn(),
  },
  (table) => [index("reports_reported_user_idx").on(table.reportedUserId, table.createdAt)],
);
