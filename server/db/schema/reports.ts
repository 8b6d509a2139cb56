import { index, pgTable, text } from "drizzle-orm/pg-core";
import { user } from "./auth";
import * as columns from "./columns";

/** Reports of users (and later posts) for the moderation queue a later issue builds. */
export const reports = pgTable(
  "reports",
  {
    id: columns.id(),
    campusId: columns.campusId(),
    reporterId: columns.userRef("reporter_id"),
    reportedUserId: text("reported_user_id").references(() => user.id, { onDelete: "cascade" }),
    reason: text("reason"),
    createdAt: columns.createdAt(),
  },
  (table) => [
    index("reports_reported_user_idx").on(table.reportedUserId, table.createdAt),
    // Decision 0523: the staff's count of waiting reports, per campus.
    index("reports_campus_idx").on(table.campusId),
  ],
);
