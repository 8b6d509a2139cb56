import { sql } from "drizzle-orm";
import { check, index, jsonb, pgTable, text, unique } from "drizzle-orm/pg-core";
import { user } from "./auth";
import { campuses } from "./campuses";
import * as columns from "./columns";

/** Decision 0520: the two staff roles. A site admin serves every campus, a campus moderator one. */
export const STAFF_ROLES = ["site_admin", "campus_moderator"] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

/**
 * Decisions 0520 and 0521: who or what made a change. `staff` is a staff member through the site
 * (the row names them); `config` is ADMIN_EMAILS at start or at an address's verification;
 * `command` is `npm run staff`; `seed` the demo seed; `system` an automatic action (none yet).
 */
export const CHANGE_SOURCES = ["staff", "config", "command", "seed", "system"] as const;
export type ChangeSource = (typeof CHANGE_SOURCES)[number];

/**
 * Decision 0520: staff are rows. One row per person and role (and campus, for a moderator);
 * `campus_id` is null exactly for a site admin. `source` says how the role was granted, so a
 * start revokes only the grants ADMIN_EMAILS made (an address taken off the list), never one an
 * operator or an admin made by hand.
 */
export const staffRoles = pgTable(
  "staff_roles",
  {
    id: columns.id(),
    userId: columns.userRef("user_id"),
    role: text("role", { enum: STAFF_ROLES }).notNull(),
    campusId: text("campus_id").references(() => campuses.id),
    source: text("source", { enum: CHANGE_SOURCES }).notNull(),
    /** The site admin who appointed a moderator through the site; null for other sources. */
    grantedBy: text("granted_by").references(() => user.id, { onDelete: "set null" }),
    grantedAt: columns.time("granted_at").notNull(),
  },
  (table) => [
    check(
      "staff_roles_campus_matches_role",
      sql`(${table.role} = 'site_admin') = (${table.campusId} is null)`,
    ),
    // With the check above: one site admin row per person (campus null, nulls not distinct) and
    // one moderator row per person and campus. It also serves every look-up of a person's roles.
    unique("staff_roles_user_campus_unique").on(table.userId, table.campusId).nullsNotDistinct(),
    // The moderators page lists each campus's moderators.
    index("staff_roles_campus_idx").on(table.campusId),
  ],
);

/**
 * Decision 0521: the moderation log, one row per staff, configured or automatic action, appended
 * and never changed (only server/staff/moderation-log.ts writes it). Role changes are its first
 * rows; reports' resolutions, strikes, suspensions and appeals add theirs. It feeds a campus's
 * public log (its `campus_id`; null for a change that is no campus's, such as a site admin's
 * role), a student's standing page (`target_user_id`) and the staff's own view (actor, note).
 */
export const moderationLog = pgTable(
  "moderation_log",
  {
    id: columns.id(),
    campusId: text("campus_id").references(() => campuses.id),
    /** The staff member who acted; null when `source` is not `staff`. Kept when they leave: set null. */
    actorId: text("actor_id").references(() => user.id, { onDelete: "set null" }),
    source: text("source", { enum: CHANGE_SOURCES }).notNull(),
    /** The actor's role when they acted, so a public log can say 'Campus moderators' or 'Site admins'. */
    actorRole: text("actor_role", { enum: STAFF_ROLES }),
    /** What was done: 'grant_role', 'revoke_role' so far. */
    action: text("action").notNull(),
    /** What it was done to ('user' for a role change; later 'post', 'comment', 'message' …) and its id. */
    targetKind: text("target_kind").notNull(),
    targetId: text("target_id").notNull(),
    /** The person the action concerns (a role's holder, a post's author), for their standing page. */
    targetUserId: text("target_user_id").references(() => user.id, { onDelete: "set null" }),
    /** A reason category the public log groups by (none for role changes). */
    reasonCode: text("reason_code"),
    /** Shown to the person concerned and on the public log. */
    publicReason: text("public_reason"),
    /** Seen by staff only. */
    privateNote: text("private_note"),
    /** The action's own facts: for a role change, `{ role }`. */
    details: jsonb("details").$type<Record<string, unknown>>().notNull().default({}),
    createdAt: columns.time("created_at").notNull(),
  },
  (table) => [
    index("moderation_log_campus_created_idx").on(table.campusId, table.createdAt.desc()),
    index("moderation_log_target_user_created_idx").on(table.targetUserId, table.createdAt.desc()),
  ],
);
