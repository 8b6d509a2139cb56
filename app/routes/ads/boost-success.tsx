import { useEffect } from "react";
import { data, Link, useRevalidator } from "react-router";
import { buttonClass } from "~/app/components/ui/button";
import { REPLACE_HISTORY } from "~/app/lib/ads.server";
import { listLoader } from "~/app/lib/errors.server";
import { redirectWithToast } from "~/app/lib/toast.server";
import { getViewer } from "~/app/lib/viewer.server";
import { AD_MESSAGES } from "~/server/ads/errors.shared";
import { confirmCheckout } from "~/server/ads/fulfilment";
import type { Route } from "./+types/boost-success";

export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

export function meta() {
  return [{ title: AD_MESSAGES.processing }, { name: "robots", content: "noindex" }];
}

/**
 * spec 2 §4 'Payment success page': the same fulfilment as the webhook (whichever comes
 * first, decision 0270); a running ad goes to the post with 'Success! Your ad is running..',
 * otherwise the page says 'Ad is being processed' and looks again every two seconds.
 */
export async function loader(args: Route.LoaderArgs) {
  const { params, context, request } = args;
  const viewer = await getViewer(args);
  const sessionId = new URL(request.url).searchParams.get("session_id");
  return listLoader(
    context.app,
    async () => {
      const { running } = await confirmCheckout(context.app, viewer, { postId: params.id, sessionId });
      if (running) {
        // Decision 0465: the post replaces this return page, so Back does not come here again.
        throw await redirectWithToast(
          `/post/${params.id}`,
          { message: AD_MESSAGES.running, type: "success" },
          REPLACE_HISTORY,
        );
      }
      return data({ message: AD_MESSAGES.processing, postId: params.id, waiting: true });
    },
    { refused: (message) => ({ message, postId: params.id, waiting: false }) },
  );
}

export default function BoostSuccess({ loaderData }: Route.ComponentProps) {
  const revalidator = useRevalidator();
  const { waiting } = loaderData;
  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(() => {
      if (revalidator.state === "idle") void revalidator.revalidate();
    }, 2000);
    return () => clearInterval(timer);
  }, [waiting, revalidator]);
  return (
    <section
      role="status"
      className="rounded-2xl border border-zinc-200 bg-white px-6 py-12 text-center"
      aria-live="polite"
    >
      <p className="text-lg font-semibold text-zinc-900">{loaderData.message}</p>
      {waiting ? (
        <p className="mt-2 text-sm text-zinc-600">Waiting for the payment to be confirmed…</p>
      ) : null}
      <Link to={`/post/${loaderData.postId}`} className={buttonClass("secondary", "mt-6")}>
        Back to the post
      </Link>
    </section>
  );
}
