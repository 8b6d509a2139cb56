import { NotificationsHeader } from "~/app/components/notifications/notification-list";
import { pageTitle } from "~/app/components/shell/campus";
import type { Route } from "./+types/mentions";

// Decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle("Mentions", matches[0]?.loaderData?.campus) }];
}

/**
 * spec 2 §2 '/notifications/mentions (auth only, demo)': the original shows demo content only;
 * nothing in the product mentions anyone, so this page says so rather than invent mentions.
 */
export default function Mentions() {
  return (
    <div className="flex flex-col gap-3">
      <NotificationsHeader />
      <section className="rounded-2xl border border-dashed border-zinc-300 bg-white px-6 py-12 text-center">
        <h2 className="text-lg font-bold text-zinc-900">No mentions yet</h2>
        <p className="mt-1 text-[15px] text-zinc-600">When someone mentions you, you'll see it here.</p>
      </section>
    </div>
  );
}
