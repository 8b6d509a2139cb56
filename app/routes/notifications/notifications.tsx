import { data } from "react-router";
import {
  NotificationList,
  NotificationsError,
  NotificationsHeader,
} from "~/app/components/notifications/notification-list";
import { pageTitle } from "~/app/components/shell/campus";
import { listLoader } from "~/app/lib/errors.server";
import { requireUser } from "~/app/lib/viewer.server";
import { SOMETHING_WENT_WRONG } from "~/server/errors.shared";
import { listNotifications } from "~/server/notifications/notifications";
import type { Route } from "./+types/notifications";

// Decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

/**
 * spec 2 §2 '/notifications', §4, §7: the viewer's notifications, newest first, 15 a page;
 * listing marks them read (the root loader resets the badge for this page). A failed load
 * shows an error with 'Try Again', never an empty list.
 */
export async function loader(args: Route.LoaderArgs) {
  const { context, request } = args;
  const viewer = await requireUser(args);
  const cursor = new URL(request.url).searchParams.get("cursor");
  const now = context.app.clock.now().toISOString();
  return listLoader(
    context.app,
    async () => {
      const page = await listNotifications(context.app, viewer, { cursor });
      return data({ page, listError: null, now });
    },
    {
      // A tampered cursor: 'This list could not be loaded. Please refresh the page.'
      refused: (listError) => ({ page: null, listError, now }),
      fallback: `${SOMETHING_WENT_WRONG}.`,
      logMessage: "notifications could not be loaded",
    },
  );
}

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle("Notifications", matches[0]?.loaderData?.campus) }];
}

export default function Notifications({ loaderData }: Route.ComponentProps) {
  return (
    <div className="flex flex-col gap-3">
      <NotificationsHeader />
      {loaderData.page ? (
        <NotificationList page={loaderData.page} now={loaderData.now} />
      ) : (
        <NotificationsError message={loaderData.listError ?? `${SOMETHING_WENT_WRONG}.`} />
      )}
    </div>
  );
}
