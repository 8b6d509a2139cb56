import type { BuildAliasTable } from "drizzle-orm/pg-core/query-builders/select.types";
import { type StudentBadge, studentBadge } from "../accounts/badge.shared";
import type { user } from "../db/schema";

/** A person as post cards, comments and the savers list (/post/{id}/likes) shows them (spec 2 §3 Post.user). */
export interface UserSummary {
  id: string;
  username: string;
  firstName: string;
  /** Stored as initial plus period (spec 1 §3), e.g. 'D.'. */
  lastName: string;
  img: string | null;
  /** The verified badge shows (spec 1 §2): school-verified and not lapsed (decision 0680). */
  verified: boolean;
  /** What the badge reads at the clock's now ('Verified student · Class of 2027', 'Alum'), or null. */
  badge: StudentBadge | null;
}

/** A row of userSummaryColumns: the badge's facts, before the clock reads them (toUserSummary). */
export interface UserSummaryRow extends Omit<UserSummary, "verified" | "badge"> {
  schoolVerified: boolean;
  schoolVerifiedAt: Date | null;
  gradYear: number | null;
}

/**
 * The columns of a UserSummary, from `user` or an alias of it (a chat's other member): one
 * selection for every list that shows people (post authors, savers, chats, notifications).
 */
export function userSummaryColumns<TAlias extends string>(
  table: typeof user | BuildAliasTable<typeof user, TAlias>,
) {
  return {
    id: table.id,
    username: table.username,
    firstName: table.firstName,
    lastName: table.lastName,
    img: table.img,
    schoolVerified: table.schoolVerified,
    schoolVerifiedAt: table.schoolVerifiedAt,
    gradYear: table.gradYear,
  };
}

/** A row as pages show it: the badge read at `now` (ctx.clock), so it lapses by the clock (decision 0680). */
export function toUserSummary(row: UserSummaryRow, now: Date): UserSummary {
  const { schoolVerified, schoolVerifiedAt, gradYear, ...person } = row;
  const badge = studentBadge({ schoolVerified, schoolVerifiedAt, gradYear }, now);
  return { ...person, verified: badge !== null, badge };
}
