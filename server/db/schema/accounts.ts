import { index, integer, pgTable, text } from "drizzle-orm/pg-core";
import * as columns from "./columns";

/**
 * The 4-digit codes of spec 1 §3 'Verification record'. `purpose` tells which
 * address the code proves; `target` is the address it was mailed to.
 */
export const verificationCodes = pgTable(
  "verification_codes",
  {
    id: columns.id(),
    userId: columns.userRef("user_id"),
    campusId: columns.campusId(),
    purpose: text("purpose", { enum: ["email", "change_email", "school_email"] }).notNull(),
    target: text("target").notNull(),
    code: integer("code").notNull(),
    failedAttempts: integer("failed_attempts").notNull().default(0),
    createdAt: columns.createdAt(),
    expiresAt: columns.time("expires_at").notNull(),
  },
  (table) => [index("verification_codes_user_purpose_idx").on(table.userId, table.purpose, table.createdAt)],
);

/** Failed sign-in counters per account and per client address (spec 1 §8 lockout). */
export const loginThrottle = pgTable("login_throttle", {
  key: text("key").primaryKey(),
  failures: integer("failures").notNull().default(0),
  windowStartedAt: columns.time("window_started_at").notNull(),
  lockedUntil: columns.time("locked_until"),
});
