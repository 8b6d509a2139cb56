import { and, eq, isNull } from "drizzle-orm";
import type { Viewer } from "../accounts/viewer";
import type { AppContext } from "../context";
import { user } from "../db/schema";
import { toUserSummary, type UserSummary, userSummaryColumns } from "../lists/user-summary";
import { searchPeople } from "../search/people";
import { requireReader } from "./access";
import { PEOPLE_SEARCH_LIMIT } from "./schemas.shared";

/** A person as the chat screens show them: with the verified badge, as on post cards. */
export type ChatPerson = UserSummary;

/** A member of the viewer's campus by username, for /messages/new?to= (null when not there). */
export async function getCampusPerson(
  ctx: AppContext,
  viewer: Viewer | null,
  username: string,
): Promise<ChatPerson | null> {
  const member = requireReader(viewer);
  if (username.length > 64) return null;
  const [row] = await ctx.db
    .select(userSummaryColumns(user))
    .from(user)
    .where(
      and(
        eq(user.username, username.toLowerCase()),
        eq(user.campusId, member.campusId),
        eq(user.banned, false),
        isNull(user.deletedAt),
      ),
    )
    .limit(1);
  return row ? toUserSummary(row, ctx.clock.now()) : null;
}

/**
 * The New Message modal's people search (spec 1 §2 'Modals', §5 'New-message search'): the
 * search area's people search (decision 0190, one function for both) on the viewer's campus,
 * leaving the viewer out; nothing for a visitor or for text of one character.
 */
export async function searchCampusPeople(
  ctx: AppContext,
  viewer: Viewer | null,
  text: string,
  limit = PEOPLE_SEARCH_LIMIT,
): Promise<ChatPerson[]> {
  if (!viewer) return [];
  const page = await searchPeople(ctx, viewer, {
    campusId: viewer.campusId,
    text,
    limit: Math.min(Math.max(1, limit), 20),
    excludeViewer: true,
  });
  return page.items;
}
