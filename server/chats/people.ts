import { and, asc, eq, ne, or, sql } from "drizzle-orm";
import type { Viewer } from "../accounts/viewer";
import type { AppContext } from "../context";
import { user } from "../db/schema";
import type { ChatPerson } from "./chats";
import { MIN_PEOPLE_SEARCH_CHARACTERS, PEOPLE_SEARCH_LIMIT } from "./schemas";

/**
 * The New Message modal's people search (spec 1 §2 'Modals', §5 'New-message search'): members
 * of the viewer's campus whose name or username contains the text, only when the text is
 * longer than one character. The one place the chat screens search people: at merge it is
 * replaced by the search area's people search (issue 12), keeping this signature.
 */
export async function searchCampusPeople(
  ctx: AppContext,
  viewer: Viewer | null,
  text: string,
  limit = PEOPLE_SEARCH_LIMIT,
): Promise<ChatPerson[]> {
  if (!viewer) return [];
  const query = text.trim().replace(/\s+/g, " ").slice(0, 60);
  if ([...query].length < MIN_PEOPLE_SEARCH_CHARACTERS) return [];
  const pattern = `%${query.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
  return ctx.db
    .select({
      id: user.id,
      username: user.username,
      firstName: user.firstName,
      lastName: user.lastName,
      img: user.img,
      verified: user.schoolVerified,
    })
    .from(user)
    .where(
      and(
        eq(user.campusId, viewer.campusId),
        ne(user.id, viewer.id),
        eq(user.banned, false),
        eq(user.verified, true),
        or(
          sql`(${user.firstName} || ' ' || ${user.lastName}) ilike ${pattern}`,
          sql`${user.username} ilike ${pattern}`,
        ),
      ),
    )
    .orderBy(asc(user.firstName), asc(user.lastName), asc(user.id))
    .limit(Math.min(Math.max(1, limit), 20));
}
