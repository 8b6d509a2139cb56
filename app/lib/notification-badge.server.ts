import type { Viewer } from "~/server/accounts/viewer";
import type { AppContext } from "~/server/context";
import { countUnreadNotifications, markNotificationsSeen } from "~/server/notifications/notifications";

/** The list page, as a document request or React Router's data request for it. */
export function isNotificationsList(url: URL): boolean {
  return url.pathname.replace(/\.data$/, "") === "/notifications";
}

/**
 * The badge's unread notifications (spec 1 §2, spec 2 §7). spec 2 §4 'The unread count resets
 * when the notifications page opens': the root loader runs beside the page's own, so the reset
 * happens here, before the count, whichever loader finishes first.
 */
export async function notificationBadge(
  app: AppContext,
  request: Request,
  viewer: Viewer | null,
): Promise<number> {
  if (!viewer) return 0;
  if (isNotificationsList(new URL(request.url))) await markNotificationsSeen(app, viewer);
  return countUnreadNotifications(app, viewer);
}
