import { index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { campusIdColumn, createdAtColumn, idColumn, userIdColumn } from "./columns";

/**
 * The 4-digit codes of spec 1 §3 'Verification record'. `purpose` tells which
 * address the code proves; `target` is the address it was mailed to.
 */
export const verificationCodes = pgTable(
  "verification_codes",
  {
    id: idColumn(),
    userId: userIdColumn("user_id"),
    campusId: campusIdColumn(),
    purpose: text("purpose", { enum: ["email", "change_email", "school_email"] }).notNull(),
    target: text("target").notNull(),
    code: integer("code").notNull(),
    failedAttempts: integer("failed_attempts").notNull().default(0),
    createdAt: createdAtColumn(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (table) => [index("verification_codes_user_purpose_idx").on(table.userId, table.purpose, table.createdAt)],
);

/** Failed sign-in counters per account and per client address (spec 1 §8 lockout). */
export const loginThrottle = pgTable("login_throttle", {
  key: text("key").primaryKey(),
  failures: integer("failures").notNull().default(0),
  windowStartedAt: timestamp("window_started_at", { withTimezone: true }).notNull(),
  lockedUntil: timestamp("locked_until", { withTimezone: true }),
});
