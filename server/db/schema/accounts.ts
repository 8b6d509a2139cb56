import { index, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { user } from "./auth";
import { campuses } from "./campuses";

/**
 * The 4-digit codes of spec 1 §3 'Verification record'. `purpose` tells which
 * address the code proves; `target` is the address it was mailed to.
 */
export const verificationCodes = pgTable(
  "verification_codes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    campusId: text("campus_id")
      .notNull()
      .references(() => campuses.id),
    purpose: text("purpose", { enum: ["email", "change_email", "school_email"] }).notNull(),
    target: text("target").notNull(),
    code: integer("code").notNull(),
    failedAttempts: integer("failed_attempts").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
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
