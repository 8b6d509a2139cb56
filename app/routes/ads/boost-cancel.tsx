import { REPLACE_HISTORY } from "~/app/lib/ads.server";
import { redirectWithToast } from "~/app/lib/toast.server";
import { getViewer } from "~/app/lib/viewer.server";
import { cancelCheckout } from "~/server/ads/boost";
import { AD_MESSAGES } from "~/server/ads/errors.shared";
import type { Route } from "./+types/boost-cancel";

// Decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

/**
 * spec 2 §4 'Payment cancel page: an ad still in checkout is deleted, an alert is queued
 * ("Cancelled boost post request"), and the user returns to the post'. The checkout provider
 * sends the browser here with a GET; deleting only an unpaid ad of this viewer and session,
 * it does the same however often it is opened.
 */
export async function loader(args: Route.LoaderArgs) {
  const { params, context, request } = args;
  const viewer = await getViewer(args);
  const sessionId = new URL(request.url).searchParams.get("session_id");
  if (viewer) await cancelCheckout(context.app, viewer, { postId: params.id, sessionId });
  throw await redirectWithToast(
    `/post/${params.id}`,
    { message: AD_MESSAGES.cancelled, type: "okay" },
    REPLACE_HISTORY,
  );
}

export default function BoostCancel() {
  return null;
}
