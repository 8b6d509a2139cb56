import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { RESERVED_USERNAMES } from "../../accounts/reserved-usernames.shared";
import { campuses } from "./campuses";

/**
 * The reserved names as SQL literals. Written inline (drizzle-kit keeps a CHECK's text, not its
 * parameters); the names hold only a–z, 0–9, '.', '_' and '-', and quotes are doubled anyway.
 */
const reservedUsernameList = sql.raw(
  RESERVED_USERNAMES.map((name) => `'${name.replaceAll("'", "''")}'`).join(", "),
);

const timestamps = {
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
};

export interface BirthDate {
  month: number;
  day: number;
  year: number;
}

/**
 * better-auth's `user` table carrying the User fields of spec 1 §3 as columns.
 * better-auth's `emailVerified` and `image` are mapped onto the spec's `verified` and `img`.
 */
export const user = pgTable(
  "user",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    email: text("email").notNull().unique(),
    verified: boolean("verified").notNull().default(false),
    img: text("img"),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    username: text("username").notNull(),
    campusId: text("campus_id")
      .notNull()
      .references(() => campuses.id),
    schoolEmail: text("school_email"),
    schoolVerified: boolean("school_verified").notNull().default(false),
    gradYear: integer("grad_year"),
    phone: text("phone"),
    bio: text("bio"),
    gender: text("gender", { enum: ["male", "female", "other"] }),
    birthDate: jsonb("birth_date").$type<BirthDate>(),
    profileSetUp: boolean("profile_set_up").notNull().default(false),
    gettingStarted: boolean("getting_started").notNull().default(false),
    type: text("type").notNull().default("individual"),
    emailNotifications: boolean("email_notifications").notNull().default(true),
    /** In cents (spec 1 §3). */
    availableFunds: integer("available_funds").notNull().default(0),
    totalPosts: integer("total_posts").notNull().default(0),
    /** Banned accounts cannot sign in (spec 1 §6); data, not a list in code. */
    banned: boolean("banned").notNull().default(false),
    /**
     * Decision 0543: suspended until then (a Suspend or a Ban; the far future for 'until lifted').
     * Compared with the clock on every read, so a suspension ends without a job.
     */
    suspendedUntil: timestamp("suspended_until", { withTimezone: true }),
    /**
     * Decision 0571: when the student deleted their account. The row stays as a tombstone
     * ('Deleted account') so the other side's conversations and the payment records keep their
     * author; everything personal on it is cleared, and the username and e-mail are released
     * 30 days later.
     */
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
    /**
     * Decision 0650: the trust level, 0–3 (New, Basic, Member, Regular), recomputed from facts the
     * product has when they change. While `trust_locked_at` is set, staff fixed it and recomputing
     * leaves it alone (`trust_locked_by` says who).
     */
    trustLevel: smallint("trust_level").notNull().default(0),
    trustLockedAt: timestamp("trust_locked_at", { withTimezone: true }),
    trustLockedBy: text("trust_locked_by"),
    /** Decision 0650: limited from starting conversations until then (a safety flag), compared with the clock. */
    conversationsLimitedUntil: timestamp("conversations_limited_until", { withTimezone: true }),
    /**
     * Decision 0650: 'Who can message me'. 'anyone' (the spec's behaviour) or 'known' (people the
     * student traded with or wrote to first; other first messages wait in Requests).
     */
    messagePolicy: text("message_policy", { enum: ["anyone", "known"] })
      .notNull()
      .default("anyone"),
    /**
     * Decision 0650: when the school address was last confirmed with a code; the badge lasts 12
     * months from then. `badge_reminder_sent_at` is the '30 days before' reminder of this period.
     */
    schoolVerifiedAt: timestamp("school_verified_at", { withTimezone: true }),
    badgeReminderSentAt: timestamp("badge_reminder_sent_at", { withTimezone: true }),
    /** spec 1 §4: after school verification, the campus whose site the generic instance sends the user to. */
    redirectTo: text("redirect_to").references(() => campuses.id),
    ...timestamps,
  },
  (table) => [
    uniqueIndex("user_username_unique").on(table.username),
    // Decision 0125: whatever writes the row, nobody holds a page's path, the staff's
    // name or a campus's. A change to the list makes drizzle-kit generate a new migration, which
    // must first rename the accounts holding a newly reserved name, as 0011_notifications.sql does
    // (decision 0300; 0005_reserved_usernames.sql did it first, with a loop).
    check("user_username_not_reserved", sql`lower(${table.username}) not in (${reservedUsernameList})`),
    uniqueIndex("user_school_email_unique")
      .on(table.schoolEmail)
      .where(sql`${table.schoolEmail} is not null`),
    index("user_campus_school_verified_idx").on(table.campusId, table.schoolVerified),
    check("user_trust_level_range", sql`${table.trustLevel} between 0 and 3`),
    check("user_message_policy_values", sql`${table.messagePolicy} in ('anyone', 'known')`),
    // Decision 0650: the badge-renewal job finds the badges that lapse within 30 days.
    index("user_school_verified_at_idx")
      .on(table.schoolVerifiedAt)
      .where(sql`${table.schoolVerified} and ${table.deletedAt} is null`),
    // Decision 0190: people search, names and username by trigram within a campus.
    index("user_people_search_idx").using(
      "gin",
      table.campusId,
      sql`lower(${table.firstName} || ' ' || ${table.lastName} || ' ' || ${table.username}) gin_trgm_ops`,
    ),
  ],
);

export const session = pgTable(
  "session",
  {
    id: text("id").primaryKey(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    token: text("token").notNull().unique(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    ...timestamps,
  },
  (table) => [index("session_user_id_idx").on(table.userId)],
);

export const account = pgTable(
  "account",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    providerId: text("provider_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    accessToken: text("access_token"),
    refreshToken: text("refresh_token"),
    idToken: text("id_token"),
    accessTokenExpiresAt: timestamp("access_token_expires_at", { withTimezone: true }),
    refreshTokenExpiresAt: timestamp("refresh_token_expires_at", { withTimezone: true }),
    scope: text("scope"),
    password: text("password"),
    ...timestamps,
  },
  (table) => [index("account_user_id_idx").on(table.userId)],
);

/** better-auth's own one-time tokens (password reset links, later magic links). */
export const verification = pgTable(
  "verification",
  {
    id: text("id").primaryKey(),
    identifier: text("identifier").notNull(),
    value: text("value").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    ...timestamps,
  },
  (table) => [index("verification_identifier_idx").on(table.identifier)],
);
