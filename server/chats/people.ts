import type { Viewer } from "../accounts/viewer";
import type { AppContext } from "../context";
import { searchPeople } from "../search/people";
import type { ChatPerson } from "./chats";
import { PEOPLE_SEARCH_LIMIT } from "./schemas";

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
