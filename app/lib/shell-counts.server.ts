import type { Viewer } from "~/server/accounts/viewer";
import { countCampusMembers } from "~/server/campuses/campuses";
import type { AppContext } from "~/server/context";
import { readShellCounts, type ShellCounts } from "~/server/notifications/badges";
import { markNotificationsSeen } from "~/server/notifications/notifications";

/** The list page, as a document request or React Router's data request for it. */
export function isNotificationsList(url: URL): boolean {
  return url.pathname.replace(/\.data$/, "") === "/notifications";
}

/**
 * The badges (spec 1 §2: unread chats and notifications), the live event number and the campus's
 * member count ('About This Group'), for the root loader: a visitor's page reads only the count. spec 2 §4 'The unread count resets when the notifications page opens': the root loader
 * runs beside the page's own, so the reset happens here, before the count, whichever loader
 * finishes first.
 */
export async function shellCounts(
  app: AppContext,
  request: Request,
  viewer: Viewer | null,
  campusId: string,
): Promise<ShellCounts> {
  if (!viewer) {
    const memberCount = await countCampusMembers(app.db, campusId);
    return { unreadChats: 0, unreadNotifications: 0, realtimeSeq: 0, memberCount, waitingItems: 0 };
  }
  if (isNotificationsList(new URL(request.url))) await markNotificationsSeen(app, viewer);
  return readShellCounts(app, viewer, campusId);
}
