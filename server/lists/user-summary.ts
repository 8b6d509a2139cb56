import type { BuildAliasTable } from "drizzle-orm/pg-core/query-builders/select.types";
import type { user } from "../db/schema";

/** A person as post cards, comments and the savers list (/post/{id}/likes) shows them (spec 2 §3 Post.user). */
export interface UserSummary {
  id: string;
  username: string;
  firstName: string;
  /** Stored as initial plus period (spec 1 §3), e.g. 'D.'. */
  lastName: string;
  img: string | null;
  /** The verified badge: school-verified (spec 1 §2 'Verified (Yes/No from school verification)'). */
  verified: boolean;
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
    verified: table.schoolVerified,
  };
}
